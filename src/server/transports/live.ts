import type { Transport } from '../../contract/channels.ts';
import type { HookRegistrar } from '../core/channels/hook-refresh.ts';
import type { ConnectDriver } from '../core/channels/ports.ts';
import { systemClock } from '../core/ports.ts';
import type { MessageDeps, MessagingDriver, MessengerAppHook, MessengerFileOpener, MessengerHook } from '../core/messages/ports.ts';
import { callPacer, type CallLimits, type CallPacer } from './call-pacer.ts';
import { maxLimits } from './maxbot/bot-driver.ts';
import { pacesGroupChats, telegramLimits } from './telegram/bot-pacer.ts';
import { sourceAgent } from './file-source.ts';
import { PACE_KEY_PREFIX, paceConnection, sharedCallPacer } from './shared-pacer.ts';
import type { AuthorizationReturn } from '../core/channels/authorization-return.ts';
import type { Store } from '../core/ports.ts';
import type { TemplatePlatform } from '../core/templates/ports.ts';
import { whatsappLimits, type WhatsAppDeps } from './wapi/account.ts';
import { whatsappTransport } from './wapi/whatsapp-transport.ts';
import { instagramTransport } from './instapi/instagram-transport.ts';
import { avitoLimits } from './avito/avito-driver.ts';
import { avitoTransport } from './avito/avito-transport.ts';
import type { LiveTransport } from './live-transport.ts';
import type { SessionDriver } from '../core/sessions/ports.ts';
import { renderQr } from './qr-image.ts';
import type { WaSessionStats } from './whatsapp/session-stats.ts';
import { vkApi } from './vk/vk-api.ts';
import { vkLimits } from './vk/vk-community.ts';
import { vkTransport } from './vk/vk-transport.ts';
import { tgapiLimits } from './tgapi/messaging.ts';
import type { LiveDriverOptions } from './live-options.ts';
import { liveTransports, noReactions, notLive, noSuchStep, type LiveTransportName } from './live-refusals.ts';
import { botTransports, liveKeys } from './live-bots.ts';
import { personalTelegram, personalWhatsApp } from './live-personal.ts';

export type { LiveDriverOptions } from './live-options.ts';
export { liveTransports } from './live-refusals.ts';

export interface LiveDrivers {
  connect: ConnectDriver;
  messaging: MessagingDriver;
  hooks(messages: MessageDeps): { updates: Record<string, MessengerHook>; files: Record<string, MessengerFileOpener>; apps: Record<string, MessengerAppHook> };
  /** By transport: where a platform's authorization page sends a channel's owner back to (wapi's Embedded Signup). */
  authorizations: Record<string, AuthorizationReturn>;
  /** One per live transport: what brings its channels' registrations up to date (the hook refresh). */
  registrars: HookRegistrar[];
  /** What opens the long-lived connections of the transports that hold one, in the process holding each session. */
  sessions: SessionDriver[];
  /** Where wapi's templates are moderated (Meta's template API), once WhatsApp is set up. */
  templates: TemplatePlatform | null;
  /** Lets go of Redis (the shared pace), once nothing is sent any more. */
  close(): Promise<void>;
  /** This process's personal WhatsApp sessions, for the metrics (null without the driver). */
  whatsappSessions: WaSessionStats | null;
}

/**
 * The real platforms behind the same ports as the sandbox: connecting, messaging, and the callbacks the platforms
 * post to `/hooks/<transport>/<channel id>` (or, for a platform that posts every account's to one address of the
 * app's, to `/hooks/<name>`), each transport from a table of its own. A transport without a live driver (or, for
 * Instagram, without its Meta app set up) is refused when a channel of it is created; one left from a sandbox run
 * fails its sends as unavailable.
 */
export function liveDrivers(options: LiveDriverOptions): LiveDrivers {
  const { keyFor, secretsOf } = liveKeys(options.secretKey);
  // One guarded agent for every file a live transport fetches: the files sends name, and MAX's videos.
  const filesAgent = sourceAgent(options.allowLoopbackFiles ?? false);
  // One pace per bot, shared by everything that calls it: sends, answers to presses (MAX, on a budget of their own)
  // and the hook refresh. Across processes through Redis when it is set, else per process.
  const shared = options.sharedPace ?? null;
  const redis = shared ? paceConnection(shared.redisUrl) : null;
  const pacerOf = (paced: LiveTransportName | 'instAPI-media', limits: CallLimits, pacesChat: (chatId: string) => boolean): CallPacer => {
    const local = callPacer(limits, pacesChat);
    return redis && shared ? sharedCallPacer({ redis, keyPrefix: `${PACE_KEY_PREFIX}:${paced}`, limits, pacesChat, fallback: local, warn: shared.warn }) : local;
  };
  const table: Partial<Record<LiveTransportName, LiveTransport>> = botTransports(options, filesAgent, {
    telegram: pacerOf('telegram', telegramLimits, pacesGroupChats),
    maxbot: pacerOf('maxbot', maxLimits, () => true),
  });
  if (options.avito) table.avito = avitoTransport(options, options.avito, secretsOf('avito-webhook-secrets/v1'), filesAgent, pacerOf('avito', options.avitoLimits ?? avitoLimits, () => false));
  // What the drivers whose channels come back from the platform's authorization page share: the store it records in.
  const authorized = (store: Store) => ({
    publicUrl: options.publicUrl,
    cipher: options.cipher,
    channels: store.channels,
    store,
    clock: options.clock ?? systemClock,
    revoked: options.revoked,
    filesAgent,
  });
  if (options.instagram) {
    const { store, loginConfigId, ...app } = options.instagram;
    const login = store ? { ...authorized(store), stateKey: keyFor('instagram-login-state/v1'), configId: loginConfigId ?? null } : null;
    table.instAPI = instagramTransport({ ...app, cipher: options.cipher, revoked: options.revoked, login }, pacerOf);
  }
  if (options.whatsapp) {
    const { store, ...app } = options.whatsapp;
    const deps: WhatsAppDeps = {
      ...app,
      ...authorized(store),
      stateKey: keyFor('wapi-signup-state/v1'),
      linkKey: keyFor('wapi-file-links/v1'),
      sendFiles: { agent: filesAgent, allowLoopback: options.allowLoopbackFiles ?? false },
    };
    table.wapi = whatsappTransport(deps, pacerOf('wapi', whatsappLimits, () => false));
  }
  if (options.vk) {
    const { store, ...app } = options.vk;
    const deps = {
      ...authorized(store),
      app,
      api: vkApi(app),
      previousPublicUrl: options.previousPublicUrl ?? null,
      stateKey: keyFor('vk-oauth-state/v1'),
      allowLoopbackFiles: options.allowLoopbackFiles ?? false,
    };
    table.vk = vkTransport(deps, pacerOf('vk', options.vkLimits ?? vkLimits, () => false));
  }
  const tgapi = personalTelegram(options, keyFor, filesAgent, pacerOf('tgapi', tgapiLimits, () => true));
  if (tgapi) table.tgapi = tgapi.transport;
  const whatsapp = personalWhatsApp(options, filesAgent);
  if (whatsapp) table.whatsapp = whatsapp;
  const live = liveTransports.filter((transport) => table[transport] !== undefined);
  const liveOf = (transport: Transport): LiveTransport | undefined => (Object.hasOwn(table, transport) ? table[transport as LiveTransportName] : undefined);

  return {
    whatsappSessions: whatsapp?.stats ?? null,
    connect: {
      connects: (transport) => liveOf(transport) !== undefined,
      async connect({ channelId, transport, credentials, previous }) {
        const driver = liveOf(transport);
        if (!driver) throw notLive(transport, live);
        const outcome = await driver.connect(channelId, credentials, previous);
        return outcome.kind === 'ready' && driver.registrar ? { ...outcome, hookFingerprint: driver.registrar.fingerprint } : outcome;
      },
      // Among the live transports, personal Telegram accounts connect by QR and password, personal WhatsApp by the
      // QR its session is issued (or a pairing code).
      // Each transport's codes from its own side: Telegram's login tokens for tgapi only; WhatsApp's come from the
      // channel's session (never from here).
      newQrPayload: (channelId, transport) => (transport === 'tgapi' && tgapi ? tgapi.newQrPayload(channelId) : Promise.reject(noSuchStep())),
      qrFromSession: (transport) => transport === 'whatsapp' && whatsapp !== null,
      renderQr,
      ...(whatsapp ? { pairingCode: (channelId: string, phone: string) => whatsapp.pairingCode(channelId, phone) } : {}),
      checkTwoFactor: ({ channelId, code }) => tgapi?.checkTwoFactor(channelId, code) ?? Promise.reject(noSuchStep()),
      authorizationUrl: () => {
        throw noSuchStep();
      },
      disconnect: (channel) => liveOf(channel.transport)?.disconnect(channel) ?? Promise.resolve(),
    },
    messaging: {
      send: (m) => liveOf(m.transport)?.messaging.send(m) ?? Promise.resolve({ kind: 'failed', reason: 'message_channel_unavailable' }),
      edit: (ref) => liveOf(ref.transport)?.messaging.edit(ref) ?? Promise.reject(notLive(ref.transport, live)),
      remove: (ref) => liveOf(ref.transport)?.messaging.remove(ref) ?? Promise.reject(notLive(ref.transport, live)),
      react: (ref) => {
        const driver = liveOf(ref.transport)?.messaging;
        if (!driver) return Promise.reject(notLive(ref.transport, live));
        if (!driver.react) return Promise.reject(noReactions(ref.transport));
        return driver.react(ref);
      },
      // Typing is a courtesy: where the platform (or its driver) has none, nothing is shown.
      sendTyping: (chat) => liveOf(chat.transport)?.messaging.sendTyping?.(chat) ?? Promise.resolve(),
    },
    hooks(messages) {
      const updates: Record<string, MessengerHook> = {};
      const files: Record<string, MessengerFileOpener> = {};
      const apps: Record<string, MessengerAppHook> = {};
      for (const transport of live) {
        const hooks = table[transport]!.hooks(messages);
        if (hooks.update) updates[transport] = hooks.update;
        if (hooks.files) files[transport] = hooks.files;
        if (hooks.app) apps[hooks.app.name] = hooks.app.hook;
      }
      return { updates, files, apps };
    },
    registrars: live.flatMap((transport) => table[transport]!.registrar ?? []),
    sessions: live.flatMap((transport) => table[transport]!.session ?? []),
    templates: table.wapi?.templates ?? null,
    authorizations: Object.fromEntries(live.flatMap((transport) => (table[transport]!.authorization ? [[transport, table[transport]!.authorization!]] : []))),
    async close() {
      await tgapi?.close();
      await redis?.quit().catch(() => redis.disconnect());
    },
  };
}
