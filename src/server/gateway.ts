import { randomUUID } from 'node:crypto';
import { exportAnnouncementObserver } from './core/exports/exports.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PgBoss } from 'pg-boss';
import { accountOfCounterKey, createCounterFeed, createRealtimeHub, mountEmbedding, type RealtimeHub } from './bff/index.ts';
import { hashSecret } from './core/accounts/token-secret.ts';
import { linkSigner } from './core/embedding/link-token.ts';
import { embeddingPolicy } from './core/embedding/policy.ts';
import { downloadLinks } from './core/exports/download-link.ts';
import { uploadLinks, type UploadDeps } from './core/uploads/uploads.ts';
import type { ExportDeps } from './core/exports/ports.ts';
import { systemClock } from './core/ports.ts';
import type { Config } from './config.ts';
import { buildHttpApp } from './http/app.ts';
import { answerOnlyHealth } from './http/health-only.ts';
import { gatewayLogger } from './http/request-log.ts';
import { failedAuthLimiter } from './http/rate-limit/failed-auth.ts';
import { requestLimiter } from './http/rate-limit/plugin.ts';
import { redisWindowCounter } from './http/rate-limit/redis-counter.ts';
import { memoryWindowCounter, type WindowCounter } from './http/rate-limit/window-counter.ts';
import { createBoss, createQueues, transactionalJobs } from './jobs/boss.ts';
import { workChannelTimers } from './jobs/workers/channel-timers.ts';
import { startEventDispatch } from './jobs/workers/dispatch-events.ts';
import { startSendLoop, type SendLoop } from './jobs/workers/send-messages.ts';
import { acceptCommitter } from './core/messages/accept-batch.ts';
import { workExports } from './jobs/workers/exports.ts';
import { httpWebhookSender, systemResolver } from './jobs/webhooks/http-sender.ts';
import { startWebhooks } from './gateway-webhooks.ts';
import { emptyPass } from './core/channels/hook-refresh.ts';
import { HOOK_REFRESH_EVERY_MS, logPass, startHookRefresh } from './jobs/workers/refresh-hooks.ts';
import { hookRegistrationRepository } from './storage/repositories/hook-registrations.ts';
import { credentialsCipher } from './storage/credentials-cipher.ts';
import { resolveSecret } from './secrets.ts';
import { migrateToLatest, openDatabase, type DatabaseTarget } from './storage/database.ts';
import { exportFiles } from './storage/export-files.ts';
import { uploadFiles } from './storage/upload-files.ts';
import { startEmbeddedMaintenance } from './storage/embedded-maintenance.ts';
import { DELIVERIES_QUEUED, EVENTS_RECORDED, SENDS_ACCEPTED, SESSIONS_RELEASED, announcer, listen, type Announcer } from './storage/notifications.ts';
import { createStore } from './storage/store.ts';
import { authRepository } from './storage/repositories/account-profiles.ts';
import { deriveKey } from './core/keys.ts';
import { setPartnerCredentials } from './core/auth/partners.ts';
import { createPhoneFeed } from './core/sandbox/phone-feed.ts';
import { billedConversations } from './core/auth/waba-billing.ts';
import { signInLimiter } from './http/rate-limit/sign-in-limiter.ts';
import { endGrant, tokenGrant } from './core/embedding/grants.ts';
import { readBacklog } from './storage/backlog.ts';
import { gatewayMetrics } from './metrics.ts';
import type { EventsRecorded } from './storage/repositories/webhook-fan-out.ts';
import { crmAnswerObserver } from './core/webhooks/v3-crm-answers.ts';
import { transportRules } from './transports/rules.ts';
import type { LiveDrivers } from './transports/live.ts';
import { openLiveDrivers, startSessions } from './gateway-live.ts';
import { sandboxConnectDriver } from './transports/sandbox/connect-driver.ts';
import { sandboxMessagingDriver } from './transports/sandbox/messaging-driver.ts';
import type { MessageDeps } from './core/messages/ports.ts';
import type { ChannelDeps } from './core/channels/ports.ts';
import type { SessionLoop } from './core/sessions/runner.ts';
import { sessionLeaseRepository } from './storage/repositories/sessions.ts';

import type { Gateway, GatewayOverrides } from './gateway-types.ts';

export type { Gateway, GatewayOverrides, WebhookOverrides } from './gateway-types.ts';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function databaseTargetOf(config: Config): DatabaseTarget {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir };
}

/** Builds everything once, in dependency order; nothing is created at import time. */
export async function createGateway(config: Config, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const clock = overrides.clock ?? systemClock;
  const partnerKey = await resolveSecret(config.partnerApiKey, config.dataDir, 'partner-api-key');
  const secretKey = (await resolveSecret(config.secretKey, config.dataDir, 'secret-key')).value;
  // Outages are told in the gateway's log, which is made after the database.
  let outageLog: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void } | null = null;
  const database = await openDatabase(overrides.database ?? databaseTargetOf(config), { log: () => outageLog });
  const outage = database.availability;
  /** Logs an error unless it says the database is away (noted once by the availability, not per failure). */
  const unlessOutage = (err: unknown, logIt: () => void) => {
    if (!outage.report(err)) logIt();
  };
  let boss: PgBoss | null = null;
  let counter: WindowCounter | null = null;
  let realtime: RealtimeHub | null = null;
  let liveOpened: LiveDrivers | null = null;
  // This gateway's mark on the notifications it raises (its own listeners skip them), and what a commit wakes here.
  const origin = randomUUID();
  let eventsRecorded: EventsRecorded = () => {};
  let announcements: Announcer | null = null;
  try {
    await migrateToLatest(database.db);
    boss = createBoss(database);
    const startedBoss = boss;
    await startedBoss.start();
    await createQueues(startedBoss);
    let log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void } | null = null;
    const announced = (announcements = announcer(database, origin, (err) => unlessOutage(err, () => log?.warn({ err }, 'announcing to other processes failed'))));
    const store = createStore(database.db, transactionalJobs(startedBoss), {
      singleConnection: database.pglite !== null,
      uploadFiles: database.pglite ? uploadFiles(join(config.dataDir, 'uploads')) : null,
      sessionOwner: origin,
      eventsRecorded: (what) => {
        announced.announce(EVENTS_RECORDED);
        if (what.deliveries) announced.announce(DELIVERIES_QUEUED);
        eventsRecorded(what);
      },
    });
    const cipher = credentialsCipher(secretKey);
    // Instruments wrap the ports they count; without a metrics token nothing is measured.
    const metrics = config.metricsToken
      ? gatewayMetrics({
          clock,
          readBacklog: () => readBacklog(database.db),
          connectedFrames: () => realtime?.connectedFrames() ?? 0,
          whatsappSessions: () => liveOpened?.whatsappSessions ?? null,
          readPacing: () => store.pacing.figures(clock.now()),
        })
      : null;
    // What each live channel registered with its platform, recorded by the connect path and refreshed when outdated.
    const registrations = hookRegistrationRepository(database.db);
    // The long-lived sessions' leases; the runner holding them here starts once the drivers are known (below).
    const sessionLeases = sessionLeaseRepository(database.db);
    let sessions: SessionLoop | null = null;
    // The real platforms, where the gateway is set to reach them; else the simulated network stands in for all.
    const live = (liveOpened =
      config.transportMode === 'live'
        ? openLiveDrivers(config, overrides, {
            store,
            cipher,
            secretKey,
            clock,
            db: database.db,
            metrics,
            sessionLeases,
            wakeSessions: () => sessions?.wake(),
            channels: () => channels,
            log: () => log,
          })
        : null);
    const channels: ChannelDeps = {
      store,
      clock,
      rules: transportRules,
      driver: live?.connect ?? sandboxConnectDriver({ sandbox: store.sandbox, publicUrl: config.publicUrl }),
      cipher,
      plan: config.transportMode === 'sandbox' ? 'sandbox' : 'standard',
    };
    const auth = authRepository(database.db);
    // The sandbox phones hear of changes and of agents typing by push (core/sandbox/phone-feed.ts).
    const phoneFeed = config.transportMode === 'sandbox' ? createPhoneFeed() : null;
    const messenger =
      overrides.messagingDriver ??
      live?.messaging ??
      billedConversations(
        sandboxMessagingDriver({
          sandbox: store.sandbox,
          rules: transportRules,
          clock,
          latencyMs: config.sandboxLatencyMs,
          typing: (chat) => phoneFeed?.typing(chat.accountId, { kind: 'typing', channel_id: chat.channelId, chat_type: chat.chatType, chat_id: chat.chatId }),
        }),
        { auth, clock },
      );
    const messages: MessageDeps = {
      store,
      clock,
      rules: transportRules,
      driver: metrics ? metrics.messaging(messenger) : messenger,
      // The hub is made later; a customer typing before it exists has nobody to tell.
      typingHeard: (typing) => void realtime?.typing(typing).catch((err: unknown) => log?.warn({ err }, 'telling frames of typing failed')),
      ...(phoneFeed ? { phoneFeed } : {}),
    };
    // Personal numbers (live WhatsApp and Telegram accounts) send at a person's pace: see src/server/core/pacing.
    if (live && config.personalPacing) {
      messages.pacing = {
        random: Math.random,
        slowed: (channelId, reason, until) =>
          log?.warn({ channelId, reason, until }, `the platform ${reason === 'flagged' ? 'flagged the account for spam' : 'rate-limited the account'}: the channel sends slower until ${until.toISOString()}`),
      };
    }
    let sendLoop: SendLoop | null = null;
    // One batch at a time on the embedded database (one connection); a few overlap on PostgreSQL.
    const sendsAccepted = () => {
      announced.announce(SENDS_ACCEPTED);
      sendLoop?.wake();
    };
    messages.accepts = acceptCommitter(messages, { flushes: database.pglite ? 1 : 4, committed: sendsAccepted });
    const exports: ExportDeps = {
      store,
      clock,
      files: exportFiles(join(config.dataDir, 'exports')),
      links: downloadLinks(secretKey, config.publicUrl),
    };
    const uploads: UploadDeps = { store, clock, links: uploadLinks(secretKey, config.publicUrl), dailyLimitBytes: config.uploadDailyLimitBytes };
    counter = overrides.rateLimitCounter ?? (config.redisUrl ? redisWindowCounter(config.redisUrl) : memoryWindowCounter());
    const failedAuth = failedAuthLimiter({ counter, clock, log: { warn: (obj, msg) => log?.warn(obj, msg) } });
    const urlPolicy = { allowLoopback: config.webhookAllowLoopback };
    const webhookOptions = overrides.webhooks ?? {};
    const resolveHost = webhookOptions.resolveHost ?? systemResolver;
    const webhookSealer = credentialsCipher(secretKey, 'webhook-signing-secrets/v1');
    const httpSender = webhookOptions.sender ? null : httpWebhookSender({ policy: urlPolicy, resolveHost });
    const webhookSender = webhookOptions.sender ?? httpSender!;

    let stopping = false;
    const hub = (realtime = createRealtimeHub({ store, clock, redisUrl: config.redisUrl, log: { warn: (obj, msg) => log?.warn(obj, msg) } }));
    const embedding = { store, clock, links: linkSigner(secretKey), publicUrl: config.publicUrl, live: hub };
    const hooks = live && { ...live.hooks(messages), authorizations: live.authorizations };
    const widgetDir = overrides.widgetDir === undefined ? new URL('../../dist', import.meta.url).pathname : overrides.widgetDir;
    if (config.partnerBasic) await setPartnerCredentials({ auth, clock }, config.partnerBasic.login, config.partnerBasic.secret);
    const oauth = {
      store,
      auth,
      clock,
      machineKey: deriveKey(secretKey, 'oauth-machine-tokens/v1'),
      publicUrl: config.publicUrl,
      failures: signInLimiter(clock),
      // A revoked OAuth grant ends the frames' sessions and unused links it minted, as a revoked client token does.
      grantsEnded: async (ids: string[]) => {
        for (const id of ids) await endGrant(embedding, tokenGrant(id));
      },
    };
    const counterFeed = createCounterFeed({
      store,
      log: { warn: (obj, msg) => log?.warn(obj, msg) },
      accountOfKey: (key) => accountOfCounterKey({ tokens: store.tokens, oauth }, key),
      failedAuth,
    });
    const app = await buildHttpApp({
      store,
      clock,
      oauth,
      partnerKeyHash: hashSecret(partnerKey.value),
      rateLimitCounter: counter,
      failedAuth,
      channels,
      messages,
      exports,
      uploads,
      sandbox: config.transportMode === 'sandbox',
      urlPolicy,
      resolveHost,
      webhookSealer,
      webhookSender,
      checkReady: async () => {
        if (stopping) throw new Error('shutting down');
        if (!outage.up()) throw new Error('the database cannot be reached');
        await database.probe().catch((err: unknown) => {
          outage.report(err);
          throw err;
        });
      },
      databaseUnavailable: (err) => outage.report(err),
      databaseDown: () => !outage.up(),
      isStopping: () => stopping,
      publicUrl: config.publicUrl,
      trustProxy: config.trustProxy,
      version,
      widgetDir,
      logger: overrides.logger ?? gatewayLogger(config.logLevel),
      embedding,
      ...(hooks ? { messengerHooks: metrics ? { ...hooks, updates: metrics.hooks(hooks.updates), apps: metrics.appHooks(hooks.apps) } : hooks } : {}),
      ...(metrics && config.metricsToken ? { metrics: { registry: metrics.registry, token: config.metricsToken } } : {}),
      templatePlatform: live?.templates ?? null,
    });
    log = outageLog = app.log;
    const { roles } = config;
    if (roles.api) {
      const limit = requestLimiter({ counter, clock, max: embeddingPolicy.sessionRateLimitRequests });
      const accountLimit = requestLimiter({ counter, clock, max: embeddingPolicy.accountFrameRateLimitRequests });
      await mountEmbedding(app, { ...embedding, rules: transportRules, limit, accountLimit, failedAuth, widgetDir, messages, channels, uploads }, hub, counterFeed);
    } else {
      answerOnlyHealth(app);
    }
    startedBoss.on('error', (err) => unlessOutage(err, () => app.log.error({ err }, 'job queue error')));
    // Background work runs in the processes with the workers role; the others only accept it (in the same
    // transaction as its cause) and wake the workers through the database's notifications.
    if (roles.workers) {
      await workChannelTimers(startedBoss, channels);
      await workExports(startedBoss, exports);
    }
    const { deliveries, sweeper } = roles.workers
      ? startWebhooks(
          { store, clock, sealer: webhookSealer, sender: webhookSender, observers: [exportAnnouncementObserver(exports), crmAnswerObserver({ store, clock })], metrics, log: app.log, outage },
          webhookOptions,
        )
      : { deliveries: null, sweeper: null };
    // The stream is followed for the frames connected here (and for the sinks a test adds).
    const sinks = [...(overrides.sinks ?? []), ...(roles.api ? [hub, counterFeed] : []), ...(phoneFeed && roles.api ? [phoneFeed.sink] : [])];
    const dispatcher = await startEventDispatch({ events: store.events, sinks }, { outage, onError: (err) => unlessOutage(err, () => app.log.error({ err }, 'event dispatch failed')) });
    // Commits of this process wake its loops directly; the notifications they raise are for other processes.
    eventsRecorded = (what) => {
      dispatcher.wake();
      if (what.deliveries) deliveries?.wake();
    };
    const recorded = await listen(database, EVENTS_RECORDED, dispatcher.wake, (err) => app.log.warn({ err }, 'event notifications interrupted'), origin);
    const queued = deliveries ? await listen(database, DELIVERIES_QUEUED, deliveries.wake, (err) => app.log.warn({ err }, 'delivery notifications interrupted'), origin) : null;
    const sends = roles.workers
      ? (sendLoop = startSendLoop(messages, { outage, onError: (err) => unlessOutage(err, () => app.log.error({ err }, 'sending failed')) }))
      : null;
    // Back from an outage: every loop looks at once for what waited (notifications raised meanwhile were lost).
    outage.onRecovered(() => {
      dispatcher.wake();
      deliveries?.wake();
      sends?.wake();
    });
    const accepted = sends ? await listen(database, SENDS_ACCEPTED, sends.wake, (err) => app.log.warn({ err }, 'send notifications interrupted'), origin) : null;

    // The long-lived sessions (personal accounts' connections) this process holds the leases of; sends through their
    // channels are claimed here only (the store's session owner is this process's origin).
    // They run in the processes with the workers role, as the sends through them do.
    const sessionDrivers = roles.workers ? [...(live?.sessions ?? []), ...(overrides.sessionDrivers ?? [])] : [];
    sessions = await startSessions(database, sessionDrivers, {
      leases: sessionLeases,
      cipher,
      owner: origin,
      clock,
      leaseMs: config.sessionLeaseMs,
      onError: (err, message) => app.log.error({ err }, message),
    });
    // Sessions another process let go (it is stopping) are taken at once, not at this runner's next round.
    const released = sessions ? await listen(database, SESSIONS_RELEASED, sessions.wake, (err) => app.log.warn({ err }, 'session notifications interrupted'), origin) : null;
    const maintenance = roles.workers
      ? startEmbeddedMaintenance(database, 30_000, (err) => unlessOutage(err, () => app.log.error({ err }, 'embedded database maintenance failed')))
      : null;
    // Live bots' registrations brought up to date: at once, then hourly; each pass logs its counts.
    const hookRefresh = live && roles.workers
      ? startHookRefresh(
          { registrations, registrars: live.registrars, clock, ...(metrics ? { counted: metrics.hookRefreshed } : {}) },
          HOOK_REFRESH_EVERY_MS,
          (pass) => logPass(app.log, pass),
          (err) => app.log.error({ err }, 'bot hook refresh failed'),
        )
      : null;

    const usedCounter = counter;
    let stopped: Promise<void> | null = null;
    return {
      app,
      store,
      boss: startedBoss,
      database,
      channels,
      messages,
      exports,
      partnerKey,
      secretKey,
      realtime: hub,
      streamPassed: dispatcher.passed,
      webhooks: {
        sweep: async () => deliveries?.wake(),
      },
      wakeSends: () => sends?.wake(),
      sessions,
      botHooks: { refresh: () => hookRefresh?.refresh() ?? Promise.resolve(emptyPass()) },
      listen: () => app.listen({ port: config.port, host: config.host }),
      stop: () =>
        (stopped ??= (async () => {
          stopping = true;
          // Sessions are handed over first: their connections close and their leases go, for another process at once.
          await sessions?.stop();
          // Requests in flight may finish; connections still open after the grace period are cut.
          const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownTimeoutMs);
          await app.close();
          clearTimeout(cut);
          await sweeper?.stop();
          await hookRefresh?.stop();
          await maintenance?.stop();
          await recorded.close();
          await accepted?.close();
          await released?.close();
          await queued?.close();
          announced.close();
          await sends?.stop(config.shutdownTimeoutMs);
          await dispatcher.stop();
          await deliveries?.stop(config.shutdownTimeoutMs);
          await startedBoss.stop({ graceful: true, timeout: config.shutdownTimeoutMs });
          await httpSender?.close();
          await usedCounter.close();
          await live?.close();
          await database.close();
        })()),
    };
  } catch (err) {
    announcements?.close();
    await realtime?.close().catch(() => {});
    await boss?.stop({ graceful: false }).catch(() => {});
    await counter?.close().catch(() => {});
    await liveOpened?.close().catch(() => {});
    await database.close().catch(() => {});
    throw err;
  }
}
