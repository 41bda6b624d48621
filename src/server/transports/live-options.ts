import type { ChannelDeps, ChannelRepository, CredentialsCipher } from '../core/channels/ports.ts';
import type { Clock, Store } from '../core/ports.ts';
import type { PeerDirectory } from '../core/messages/peers.ts';
import type { SessionHost } from '../core/sessions/ports.ts';
import type { CallLimits } from './call-pacer.ts';
import type { AvitoApplication } from './avito/avito-api.ts';
import type { TgapiClientFactory } from './tgapi/mtcute-client.ts';
import type { VkApplication } from './vk/vk-api.ts';
import type { Backoff, Liveness } from './whatsapp/liveness.ts';
import type { Timers } from './whatsapp/timers.ts';
import type { WaLibrary } from './whatsapp/wa-socket.ts';

/** What the live drivers are built from: the gateway's configuration of each platform, and the stores they record in. */
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

