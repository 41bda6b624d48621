import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { ChannelDeps } from './core/channels/ports.ts';
import { credentialsRevoked } from './core/channels/messenger-events.ts';
import type { CredentialsCipher } from './core/channels/ports.ts';
import type { Clock, Store } from './core/ports.ts';
import { SESSION_LOGOUT_TIMEOUT_MS, startSessionRunner, type SessionLoop } from './core/sessions/runner.ts';
import type { SessionDriver } from './core/sessions/ports.ts';
import type { Database } from './storage/database.ts';
import { logOutSession } from './core/sessions/session-logout.ts';
import type { GatewayOverrides } from './gateway-types.ts';
import type { GatewayMetrics } from './metrics.ts';
import { peerDirectory } from './storage/repositories/messenger-peers.ts';
import { sessionStateRepository, type sessionLeaseRepository } from './storage/repositories/sessions.ts';
import type { DatabaseSchema } from './storage/schema.ts';
import { liveDrivers, type LiveDrivers } from './transports/live.ts';
import { mtcuteClients } from './transports/tgapi/mtcute-client.ts';

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** What the live drivers take from the gateway being built; `channels` and `log` are made after them. */
export interface LiveWiring {
  store: Store;
  cipher: CredentialsCipher;
  secretKey: string;
  clock: Clock;
  db: Kysely<DatabaseSchema>;
  metrics: GatewayMetrics | null;
  sessionLeases: ReturnType<typeof sessionLeaseRepository>;
  wakeSessions(): void;
  channels(): ChannelDeps;
  log(): Log | null;
}

/** The real platforms' drivers, each where the configuration sets it up (or a test's fake stands in). */
export function openLiveDrivers(config: Config, overrides: GatewayOverrides, wiring: LiveWiring): LiveDrivers {
  const { store, clock, metrics, sessionLeases } = wiring;
  const warn = (err: unknown, msg: string) => wiring.log()?.warn({ err }, msg);
  // The Meta app Instagram and WhatsApp are served through, where the gateway is set up as one (all three or none).
  const metaApp =
    config.metaAppId && config.metaAppSecret && config.metaVerifyToken
      ? { graphUrl: config.graphApiUrl, appId: config.metaAppId, appSecret: config.metaAppSecret, verifyToken: config.metaVerifyToken }
      : null;
  return liveDrivers({
    publicUrl: config.publicUrl,
    previousPublicUrl: config.previousPublicUrl,
    secretKey: wiring.secretKey,
    cipher: wiring.cipher,
    telegramApiUrl: config.telegramApiUrl,
    maxApiUrl: config.maxApiUrl,
    avito: config.avito && { ...config.avito, apiUrl: config.avitoApiUrl },
    channels: store.channels,
    clock,
    ...(overrides.avitoLimits ? { avitoLimits: overrides.avitoLimits } : {}),
    ...(overrides.vkLimits ? { vkLimits: overrides.vkLimits } : {}),
    // Instagram once the gateway is set up as a Meta app; its people are kept with the channels.
    instagram: metaApp && { ...metaApp, peers: peerDirectory(wiring.db), channels: store.channels, store, loginConfigId: config.instagramLoginConfigId },
    // WhatsApp once the same Meta app also has an Embedded Signup configuration; customers known by another
    // WhatsApp id than the number written are kept with Instagram's people.
    whatsapp: metaApp && config.whatsappSignupConfigId ? { ...metaApp, signupConfigId: config.whatsappSignupConfigId, store, peers: peerDirectory(wiring.db) } : null,
    // VK communities once the gateway's VK application is configured.
    vk: config.vk && { ...config.vk, apiUrl: config.vkApiUrl, oauthUrl: config.vkOauthUrl, store },
    allowLoopbackFiles: config.webhookAllowLoopback,
    revoked: (id, sealed) => credentialsRevoked(wiring.channels(), id, sealed),
    ...(metrics ? { onAnswerFailed: metrics.answerFailed } : {}),
    // The bots' pace is shared by every process through Redis, as the rate-limit counters are.
    sharedPace: config.redisUrl ? { redisUrl: config.redisUrl, warn } : null,
    sessions: {
      leases: sessionLeases,
      wake: wiring.wakeSessions,
      // Waits for the holder's logout (it may have to wait for a stalled owner's lease to lapse) at most this long.
      logout: (channelId) =>
        logOutSession({ leases: sessionLeases, wake: wiring.wakeSessions, waitMs: config.sessionLeaseMs + SESSION_LOGOUT_TIMEOUT_MS + 5_000 }, channelId),
    },
    // Personal Telegram accounts once the gateway's Telegram application is configured (or a test's fake).
    tgapi:
      config.telegramApp || overrides.tgapiClients
        ? { clients: overrides.tgapiClients ?? mtcuteClients(config.telegramApp!), channels: wiring.channels, warn }
        : null,
    // Personal WhatsApp accounts, where the optional library is installed (or a test gives one).
    whatsappPersonal: config.whatsappPersonal
      ? { wsUrl: config.whatsappWsUrl, store, ...overrides.whatsapp, log: warn, note: (fields, msg) => wiring.log()?.info(fields, msg) }
      : null,
  });
}

/**
 * The long-lived sessions (personal accounts' connections) this process holds the leases of, or null where it runs
 * none; sends through their channels are claimed here only (the store's session owner is this process's origin).
 */
export async function startSessions(
  database: Database,
  drivers: SessionDriver[],
  options: { leases: ReturnType<typeof sessionLeaseRepository>; cipher: CredentialsCipher; owner: string; clock: Clock; leaseMs: number; onError(err: unknown, message: string): void },
): Promise<SessionLoop | null> {
  if (drivers.length === 0) return null;
  // The embedded database is this process's alone (its directory is locked): what a crashed run held is free now.
  if (database.pglite) await options.leases.releaseAll();
  return startSessionRunner({
    leases: options.leases,
    states: sessionStateRepository(database.db),
    cipher: options.cipher,
    drivers,
    owner: options.owner,
    clock: options.clock,
    leaseMs: options.leaseMs,
    renewEveryMs: options.leaseMs / 4,
    onError: options.onError,
  });
}
