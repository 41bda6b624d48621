import { createHmac } from 'node:crypto';
import type { Transport } from '../../contract/channels.ts';
import type { HookRegistrar } from '../core/channels/hook-refresh.ts';
import type { ChannelRepository, ConnectDriver, CredentialsCipher } from '../core/channels/ports.ts';
import { AppError, validationError } from '../core/errors.ts';
import { deriveKey } from '../core/keys.ts';
import { systemClock, type Clock } from '../core/ports.ts';
import type { PeerDirectory } from '../core/messages/peers.ts';
import type { MessageDeps, MessagingDriver, MessengerAppHook, MessengerFileOpener, MessengerHook } from '../core/messages/ports.ts';
import { callPacer, type CallLimits, type CallPacer } from './call-pacer.ts';
import { pressAnswerer } from './maxbot/bot-answers.ts';
import { connectMaxBot, disconnectMaxBot, maxBotMessaging, maxLimits, type MaxBotDeps } from './maxbot/bot-driver.ts';
import { maxFiles } from './maxbot/bot-files.ts';
import { maxUpdateHook } from './maxbot/bot-hook.ts';
import { maxSubscriptionRegistrar } from './maxbot/bot-subscription.ts';
import { connectTelegramBot, disconnectTelegramBot, telegramBotMessaging, type TelegramBotDeps } from './telegram/bot-driver.ts';
import { telegramFiles } from './telegram/bot-files.ts';
import { telegramUpdateHook } from './telegram/bot-hook.ts';
import { pacesGroupChats, telegramLimits } from './telegram/bot-pacer.ts';
import { telegramWebhookRegistrar } from './telegram/bot-webhook.ts';
import { sourceAgent } from './file-source.ts';
import { PACE_KEY_PREFIX, paceConnection, sharedCallPacer } from './shared-pacer.ts';
import type { AuthorizationReturn } from '../core/channels/authorization-return.ts';
import type { Store } from '../core/ports.ts';
import type { TemplatePlatform } from '../core/templates/ports.ts';
import { whatsappLimits, type WhatsAppDeps } from './wapi/account.ts';
import { whatsappTransport } from './wapi/whatsapp-transport.ts';
import { instagramTransport } from './instapi/instagram-transport.ts';
import { avitoLimits } from './avito/avito-driver.ts';
import type { AvitoApplication } from './avito/avito-api.ts';
import { avitoTransport } from './avito/avito-transport.ts';
import type { LiveTransport } from './live-transport.ts';
import type { SessionDriver, SessionHost } from '../core/sessions/ports.ts';
import { uploadLinks } from '../core/uploads/uploads.ts';
import { renderQr } from './qr-image.ts';
import { baileysInstalled, baileysLibrary } from './whatsapp/baileys-socket.ts';
import type { Backoff, Liveness } from './whatsapp/session.ts';
import type { WaSessionStats } from './whatsapp/session-stats.ts';
import type { Timers } from './whatsapp/timers.ts';
import { whatsappPersonalTransport } from './whatsapp/transport.ts';
import type { WaLibrary } from './whatsapp/wa-socket.ts';
import type { VkApplication } from './vk/vk-api.ts';
import { vkApi } from './vk/vk-api.ts';
import { vkLimits } from './vk/vk-community.ts';
import { vkTransport } from './vk/vk-transport.ts';
import type { ChannelDeps } from '../core/channels/ports.ts';
import { tgapiLimits } from './tgapi/messaging.ts';
import type { TgapiClientFactory } from './tgapi/mtcute-client.ts';
import { tgapiTransport, type TgapiTransport } from './tgapi/tgapi-transport.ts';

export interface LiveDriverOptions {
  publicUrl: string;
  /** PREVIOUS_PUBLIC_URL: the hook refresh moves bots still posting to their channel's hook there (and no others). */
  previousPublicUrl?: string | null;
  secretKey: string;
  cipher: CredentialsCipher;
  telegramApiUrl: string;
  maxApiUrl: string;
  /**
   * The gateway's Avito application (AVITO_CLIENT_ID, AVITO_CLIENT_SECRET, AVITO_API_URL): without it Avito channels
   * are not connected (and those connected before fail their sends as unavailable).
   */
  avito?: AvitoApplication | null;
  /** Where renewed credentials are stored (Avito's rotating tokens): the channels, compared and swapped. */
  channels?: Pick<ChannelRepository, 'getById' | 'replaceCredentials'>;
  /** When tokens expire (Avito's). */
  clock?: Clock;
  /** Avito's pace, where a test must not wait for the real one. */
  avitoLimits?: CallLimits;
  /** VK's pace, where a test must not wait for the real one. */
  vkLimits?: CallLimits;
  /** Whether files a send names may be fetched from loopback addresses (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopbackFiles?: boolean;
  /** A platform no longer takes a channel's credentials (`sealed`, as stored): the channel is switched off. */
  revoked(channelId: string, sealed: string | null): Promise<void>;
  /** A press of a button went unanswered on the platform, and why (counted; the press itself is recorded). */
  onAnswerFailed?(transport: string, reason: string): void;
  /**
   * Instagram through Meta's Graph API, where the gateway is set up as a Meta app (META_APP_ID, META_APP_SECRET and
   * META_VERIFY_TOKEN); without it instAPI channels are not connected live.
   */
  instagram?: {
    graphUrl: string;
    appId: string;
    appSecret: string;
    verifyToken: string;
    peers: PeerDirectory;
    channels: Pick<ChannelRepository, 'listByMessengerId'>;
    /** Where a channel created without credentials keeps its Facebook Login address: without it, only the four fields connect. */
    store?: Store;
    /** A Facebook Login for Business configuration for Instagram (INSTAGRAM_LOGIN_CONFIG_ID); the login asks by `scope` without it. */
    loginConfigId?: string | null;
  } | null;
  /**
   * WhatsApp Business (the Cloud API) through the same Meta app, where an Embedded Signup configuration is set besides
   * (WHATSAPP_SIGNUP_CONFIG_ID); without it wapi channels are not connected live.
   */
  whatsapp?: {
    graphUrl: string;
    appId: string;
    appSecret: string;
    verifyToken: string;
    signupConfigId: string;
    store: Store;
    /** The customers whose WhatsApp id is not the number the CRM wrote (messenger_peers, as Instagram's people). */
    peers: PeerDirectory;
  } | null;
  /**
   * VK communities through the gateway's VK application (VK_APP_ID, VK_APP_SECRET, VK_API_URL, VK_OAUTH_URL); without
   * it vk channels are not connected live. `store`: the channels, whose authorization address each step renews.
   */
  vk?: (VkApplication & { store: Store }) | null;
  /**
   * REDIS_URL, when set: the bots' pace is kept there, across every process, rather than by each process alone;
   * `warn` hears that Redis failed (those calls are then paced by this process).
   */
  sharedPace?: { redisUrl: string; warn(err: unknown, message: string): void } | null;
  /**
   * The long-lived sessions' leases (a personal account's channel registers its session on connecting), and what
   * makes this process's session runner look at once.
   */
  sessions?: SessionHost;
  /**
   * Personal Telegram accounts, where the gateway has a Telegram application (TELEGRAM_API_ID, TELEGRAM_API_HASH):
   * how their clients are made, and the channel use-cases their login steps report to; without it tgapi channels are
   * not connected live.
   */
  tgapi?: { clients: TgapiClientFactory; channels(): ChannelDeps; warn(err: unknown, message: string): void } | null;
  /**
   * Personal WhatsApp accounts (WhatsApp Web's protocol through the optional package baileys): `wsUrl` is
   * WHATSAPP_WS_URL (the library's own address when null); `library` replaces the package (tests). Left out, or without
   * the package installed, whatsapp channels are refused.
   */
  whatsappPersonal?: {
    wsUrl: string | null;
    store: Store;
    library?: WaLibrary;
    backoff?: Backoff;
    liveness?: Liveness;
    ackWaitMs?: number;
    random?: () => number;
    timers?: Timers;
    log(err: unknown, message: string): void;
    /** The sessions' life (drops, reconnects, takeovers, logouts), at info level. */
    note?(fields: Record<string, unknown>, message: string): void;
  } | null;
}


type LiveTransportName = 'telegram' | 'maxbot' | 'avito' | 'instAPI' | 'wapi' | 'vk' | 'tgapi' | 'whatsapp';

/**
 * The transports this version reaches on the real platforms (TRANSPORT_MODE=live); Avito's once the gateway's Avito
 * application is configured, Instagram's once it is set up as a Meta app.
 */
export const liveTransports: readonly LiveTransportName[] = ['telegram', 'maxbot', 'avito', 'instAPI', 'wapi', 'vk', 'tgapi', 'whatsapp'];

/** What a transport the gateway's configuration leaves out lacks. */
const notConfigured: Partial<Record<Transport, string>> = {
  avito: 'is not configured on this gateway: AVITO_CLIENT_ID and AVITO_CLIENT_SECRET (the Avito application) are not set',
  instAPI: 'is not set up on this gateway (META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN)',
  wapi: 'is not set up on this gateway (META_APP_ID, META_APP_SECRET, META_VERIFY_TOKEN and WHATSAPP_SIGNUP_CONFIG_ID)',
  vk: 'is not configured on this gateway: VK_APP_ID and VK_APP_SECRET (the VK application) are not set',
  tgapi: 'is not configured on this gateway: TELEGRAM_API_ID and TELEGRAM_API_HASH (the Telegram application) are not set',
  whatsapp:
    'has no live driver enabled on this gateway: personal WhatsApp accounts need WHATSAPP_PERSONAL=on and the optional package baileys (WhatsApp Web’s library, GPL-3.0 through libsignal) installed',
  viber: 'has no live driver: Viber offers no maintained library for personal accounts, so viber channels run in the sandbox only',
  max: 'has no live driver: MAX offers no maintained library for personal accounts, so max channels run in the sandbox only (MAX bots are maxbot)',
};

/**
 * A transport this gateway cannot connect is refused by the `transport` field, whatever the reason: no live driver, or
 * its platform's application not configured. Not a 503: nothing passes by trying again; the operator must configure
 * the gateway, and the channels frame does not offer the transport meanwhile.
 */
const notLive = (transport: Transport, live: readonly string[]) =>
  validationError(
    [{ field: 'transport', message: notConfigured[transport] ?? `has no live driver in this version (live: ${live.join(', ')})` }],
    `${transport} channels cannot be connected on this gateway`,
  );

/** No live transport connects by QR or two-factor password yet, and wapi's page is Meta's: those steps are never reached. */
const noSuchStep = () => new AppError('CHANNEL_WRONG_STATUS', 'This step does not apply to the live transports of this version');

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
  // Each secret from a key of its own, derived from SECRET_KEY as the gateway's other keys are.
  const keyFor = (purpose: string) => deriveKey(options.secretKey, purpose);
  const secretsOf = (purpose: string) => {
    const key = keyFor(purpose);
    return (channelId: string) => createHmac('sha256', key).update(channelId).digest('base64url');
  };
  // One guarded agent for every file a live transport fetches: the files sends name, and MAX's videos.
  const filesAgent = sourceAgent(options.allowLoopbackFiles ?? false);
  const common = { publicUrl: options.publicUrl, cipher: options.cipher, revoked: options.revoked, filesAgent };

  const telegram: TelegramBotDeps = {
    ...common,
    apiUrl: options.telegramApiUrl,
    hookSecret: secretsOf('telegram-webhook-secrets/v1'),
    allowLoopbackFiles: options.allowLoopbackFiles ?? false,
  };
  const maxbot: MaxBotDeps = { ...common, apiUrl: options.maxApiUrl, hookSecret: secretsOf('maxbot-webhook-secrets/v1'), allowLoopbackFiles: options.allowLoopbackFiles ?? false };
  // One pace per bot, shared by everything that calls it: sends, answers to presses (MAX, on a budget of their own)
  // and the hook refresh. Across processes through Redis when it is set, else per process.
  const shared = options.sharedPace ?? null;
  const redis = shared ? paceConnection(shared.redisUrl) : null;
  const pacerOf = (paced: LiveTransportName | 'instAPI-media', limits: CallLimits, pacesChat: (chatId: string) => boolean): CallPacer => {
    const local = callPacer(limits, pacesChat);
    return redis && shared ? sharedCallPacer({ redis, keyPrefix: `${PACE_KEY_PREFIX}:${paced}`, limits, pacesChat, fallback: local, warn: shared.warn }) : local;
  };
  const telegramPacer = pacerOf('telegram', telegramLimits, pacesGroupChats);
  const maxPacer = pacerOf('maxbot', maxLimits, () => true);

  const table: Partial<Record<LiveTransportName, LiveTransport>> = {
    telegram: {
      connect: (channelId, credentials, previous) => connectTelegramBot(telegram, channelId, String(credentials.telegram_token), previous),
      disconnect: (channel) => disconnectTelegramBot(telegram, channel.credentials),
      messaging: telegramBotMessaging(telegram, telegramPacer),
      registrar: telegramWebhookRegistrar(telegram, telegramPacer, options.previousPublicUrl ?? null),
      hooks(messages) {
        const linkKey = keyFor('telegram-file-links/v1');
        const files = telegramFiles({ apiUrl: options.telegramApiUrl, publicUrl: options.publicUrl, linkKey, store: messages.store, cipher: options.cipher });
        return {
          update: telegramUpdateHook({ messages, hookSecret: telegram.hookSecret, files }),
          files: ({ channelId, fileId, signature, range }) => files.open(channelId, fileId, signature, range),
        };
      },
    },
    // MAX's addresses of pictures, sounds and files hold no token and are handed on as they are; a video's direct
    // address comes only from a call with the bot's token, so videos get links of the gateway's own.
    maxbot: {
      connect: (channelId, credentials, previous) => connectMaxBot(maxbot, channelId, String(credentials.access_token), previous),
      disconnect: (channel) => disconnectMaxBot(maxbot, channel.id, channel.credentials),
      messaging: maxBotMessaging(maxbot, maxPacer),
      registrar: maxSubscriptionRegistrar(maxbot, maxPacer, options.previousPublicUrl ?? null),
      hooks(messages) {
        const answers = pressAnswerer({
          apiUrl: options.maxApiUrl,
          cipher: options.cipher,
          channels: messages.store.channels,
          pacer: maxPacer,
          revoked: options.revoked,
          failed: (reason) => options.onAnswerFailed?.('maxbot', reason),
        });
        const linkKey = keyFor('maxbot-file-links/v1');
        const files = maxFiles({
          apiUrl: options.maxApiUrl,
          publicUrl: options.publicUrl,
          linkKey,
          store: messages.store,
          cipher: options.cipher,
          agent: filesAgent,
        });
        return {
          update: maxUpdateHook({ messages, hookSecret: maxbot.hookSecret, answers, videoLink: files.link }),
          files: ({ channelId, fileId, signature, range }) => files.open(channelId, fileId, signature, range),
        };
      },
    },
  };
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
    const deps: WhatsAppDeps = { ...app, ...authorized(store), stateKey: keyFor('wapi-signup-state/v1'), linkKey: keyFor('wapi-file-links/v1') };
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
  let tgapi: TgapiTransport | null = null;
  if (options.tgapi && options.sessions) {
    tgapi = tgapiTransport({
      ...options.tgapi,
      publicUrl: options.publicUrl,
      linkKey: keyFor('tgapi-file-links/v1'),
      sessions: options.sessions,
      revoked: options.revoked,
      pacer: pacerOf('tgapi', tgapiLimits, () => true),
      filesAgent,
      allowLoopbackFiles: options.allowLoopbackFiles ?? false,
    });
    table.tgapi = tgapi.transport;
  }
  const personal = options.whatsappPersonal;
  const whatsapp =
    personal && options.sessions && (personal.library || baileysInstalled())
      ? whatsappPersonalTransport({
          library: personal.library ?? baileysLibrary(),
          wsUrl: personal.wsUrl,
          store: personal.store,
          clock: options.clock ?? systemClock,
          renderQr,
          // Customers' files are kept as uploads, never refused for the daily quota: what customers send is kept.
          uploads: { store: personal.store, clock: options.clock ?? systemClock, links: uploadLinks(options.secretKey, options.publicUrl), dailyLimitBytes: Number.POSITIVE_INFINITY },
          filesAgent,
          allowLoopbackFiles: options.allowLoopbackFiles ?? false,
          sessions: options.sessions,
          ...(personal.backoff ? { backoff: personal.backoff } : {}),
          ...(personal.liveness ? { liveness: personal.liveness } : {}),
          ...(personal.ackWaitMs ? { ackWaitMs: personal.ackWaitMs } : {}),
          ...(personal.random ? { random: personal.random } : {}),
          ...(personal.timers ? { timers: personal.timers } : {}),
          log: personal.log,
          ...(personal.note ? { note: personal.note } : {}),
        })
      : null;
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
        if (!driver.react) return Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS', `Messages of ${ref.transport} channels cannot be reacted to`));
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
