import { resolve } from 'node:path';
import { parseRoles, type GatewayRoles } from './roles.ts';

/** Configuration from the environment; names are part of the contract (docs/decisions.md, "Configuration names"). */
export interface Config {
  production: boolean;
  port: number;
  host: string;
  publicUrl: string;
  /**
   * The PUBLIC_URL before the last change, while the live bots move from it: the hook refresh moves a bot still
   * posting to its channel's hook there, and takes over no other address.
   */
  previousPublicUrl: string | null;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  partnerApiKey: string | null;
  /** A partner's Basic login (PARTNER_LOGIN and PARTNER_SECRET), set on start; null when not given. */
  partnerBasic: { login: string; secret: string } | null;
  secretKey: string | null;
  /** The bearer token of `GET /metrics`; without one the gateway serves no metrics. */
  metricsToken: string | null;
  webhookAllowLoopback: boolean;
  transportMode: 'sandbox' | 'live';
  /** The Telegram Bot API the live telegram driver calls (an emulator's address in tests). */
  telegramApiUrl: string;
  /** The MAX Bot API the live maxbot driver calls (an emulator's address in tests). */
  maxApiUrl: string;
  /**
   * The gateway's Avito application, whose OAuth codes connect Avito channels (AVITO_CLIENT_ID, AVITO_CLIENT_SECRET);
   * null without one: live Avito channels are then not connected.
   */
  avito: { clientId: string; clientSecret: string } | null;
  /** The Avito API the live avito driver calls (an emulator's address in tests). */
  avitoApiUrl: string;
  /**
   * The gateway's Telegram application for personal accounts (TELEGRAM_API_ID, TELEGRAM_API_HASH from my.telegram.org)
   * and, with TELEGRAM_DC (`host:port`), the data centre its clients start at; null without one: live tgapi channels
   * are then not connected.
   */
  telegramApp: { apiId: number; apiHash: string; dc: { host: string; port: number } | null } | null;
  /**
   * The gateway's VK application, whose OAuth codes connect VK communities (VK_APP_ID, VK_APP_SECRET, set together);
   * null without one: vk channels then connect in the sandbox only.
   */
  vk: { appId: string; appSecret: string } | null;
  /** VK's API (https://api.vk.com) and OAuth server (https://oauth.vk.com) the live vk driver calls (an emulator's addresses in tests). */
  vkApiUrl: string;
  vkOauthUrl: string;
  /** Meta's Graph API the live Instagram and WhatsApp drivers call, without its version (an emulator's address in tests). */
  graphApiUrl: string;
  /**
   * The one Meta app both Meta products are served through: its id and secret (the secret signs the webhooks Meta
   * posts and proves the gateway's calls are the app's; both exchange Instagram's user tokens for long-lived ones and
   * WhatsApp's signup codes) and the verify token its webhooks were set up with in Meta's app dashboard, set together
   * (without them neither Instagram nor WhatsApp connects live); and, for WhatsApp's Embedded Signup besides, the
   * signup's configuration (Facebook Login for Business).
   */
  metaAppSecret: string | null;
  metaVerifyToken: string | null;
  metaAppId: string | null;
  whatsappSignupConfigId: string | null;
  /** A Facebook Login for Business configuration Instagram's login opens (INSTAGRAM_LOGIN_CONFIG_ID); by `scope` without it. */
  instagramLoginConfigId: string | null;
  logLevel: string;
  shutdownTimeoutMs: number;
  /** How long the sandbox network takes to answer a send, to make it behave like a remote messenger. */
  sandboxLatencyMs: number;
  /** Personal WhatsApp and Telegram channels pace their sends (warm-up, caps, gaps, typing); off only for tests. */
  personalPacing: boolean;
  /**
   * How long a process's hold on a long-lived session (a personal account's connection) lasts unrenewed
   * (SESSION_LEASE_SECONDS, 20 by default): another process takes a dead one's sessions over this long after its
   * last renewal, renewed every quarter of it.
   */
  sessionLeaseMs: number;
  /** WHATSAPP_WS_URL: WhatsApp Web's WebSocket address for personal accounts (the library's own when unset). */
  whatsappWsUrl: string | null;
  /**
   * WHATSAPP_PERSONAL: personal WhatsApp accounts are connected live (through the optional package baileys, whose
   * libsignal is GPL-3.0); off by default.
   */
  whatsappPersonal: boolean;
  /** Bytes of files one account's agents may upload in 24 hours (UPLOAD_DAILY_LIMIT_MB); 0: none. */
  uploadDailyLimitBytes: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the caller's address (per-address limits): none, all, a
   * number of hops, or a list of addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /** What this process does (GATEWAY_ROLES): the API, the background workers, or both (the default). */
  roles: GatewayRoles;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/** Reads and checks every variable, reporting all problems at once rather than the first. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const v = env[name]?.trim();
    return v ? v : null;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined || raw === null) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false, got "${env[name]}"`);
    return fallback;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const raw = text(name);
    if (raw === null) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
      }
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return raw;
  };

  const production = env.NODE_ENV === 'production';
  const port = int('PORT', 8080, 0, 65535);
  const host = text('HOST') ?? (production ? '0.0.0.0' : '127.0.0.1');
  const publicUrl = (url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const previousPublicUrl = url('PREVIOUS_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null;
  if (previousPublicUrl !== null && previousPublicUrl === publicUrl) problems.push('PREVIOUS_PUBLIC_URL must differ from PUBLIC_URL');
  const transportMode = text('TRANSPORT_MODE') ?? 'sandbox';
  if (transportMode !== 'sandbox' && transportMode !== 'live') {
    problems.push(`TRANSPORT_MODE must be sandbox or live, got "${transportMode}"`);
  }
  const partnerApiKey = text('PARTNER_API_KEY');
  if (partnerApiKey !== null && partnerApiKey.length < 24) problems.push('PARTNER_API_KEY must be at least 24 characters');
  const partnerLogin = text('PARTNER_LOGIN');
  const partnerSecret = text('PARTNER_SECRET');
  if ((partnerLogin === null) !== (partnerSecret === null)) problems.push('PARTNER_LOGIN and PARTNER_SECRET must be set together');
  if (partnerLogin !== null && !/^[\x21-\x39\x3b-\x7e]{3,100}$/.test(partnerLogin)) problems.push('PARTNER_LOGIN must be 3 to 100 printable characters without spaces or colons');
  if (partnerSecret !== null && (partnerSecret.length < 12 || partnerSecret.length > 256)) problems.push('PARTNER_SECRET must be 12 to 256 characters');
  const secretKey = text('SECRET_KEY');
  if (secretKey !== null && secretKey.length < 32) problems.push('SECRET_KEY must be at least 32 characters');
  const metricsToken = text('METRICS_TOKEN');
  if (metricsToken !== null && !/^[\x21-\x7e]{24,512}$/.test(metricsToken)) problems.push('METRICS_TOKEN must be 24 to 512 printable characters without spaces');
  // A scraper's key must not also administer every account.
  if (metricsToken !== null && metricsToken === partnerApiKey) problems.push('METRICS_TOKEN must differ from PARTNER_API_KEY');
  // The application's keys go into the body of Avito's token requests: printable, without spaces, and both or neither.
  const avitoClientId = text('AVITO_CLIENT_ID');
  const avitoClientSecret = text('AVITO_CLIENT_SECRET');
  for (const [name, value] of [['AVITO_CLIENT_ID', avitoClientId], ['AVITO_CLIENT_SECRET', avitoClientSecret]] as const) {
    if (value !== null && !/^[\x21-\x7e]{1,512}$/.test(value)) problems.push(`${name} must be printable characters without spaces`);
  }
  if ((avitoClientId === null) !== (avitoClientSecret === null)) problems.push('AVITO_CLIENT_ID and AVITO_CLIENT_SECRET must be set together');
  const telegramApiId = text('TELEGRAM_API_ID');
  const telegramApiHash = text('TELEGRAM_API_HASH');
  if ((telegramApiId === null) !== (telegramApiHash === null)) problems.push('TELEGRAM_API_ID and TELEGRAM_API_HASH must be set together');
  if (telegramApiId !== null && !/^\d{1,10}$/.test(telegramApiId)) problems.push('TELEGRAM_API_ID must be a number');
  if (telegramApiHash !== null && !/^[0-9a-f]{32}$/i.test(telegramApiHash)) problems.push('TELEGRAM_API_HASH must be 32 hexadecimal characters');
  const telegramDc = text('TELEGRAM_DC');
  const dcMatch = telegramDc === null ? null : /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(telegramDc);
  if (telegramDc !== null && !dcMatch) problems.push('TELEGRAM_DC must be host:port');
  // VK's application id is digits (it goes into the address of VK's OAuth page); its secret key into the body of the
  // code's exchange: printable, without spaces; both or neither.
  const vkAppId = text('VK_APP_ID');
  if (vkAppId !== null && !/^\d{1,20}$/.test(vkAppId)) problems.push('VK_APP_ID must be the VK application’s id (digits)');
  const vkAppSecret = text('VK_APP_SECRET');
  if (vkAppSecret !== null && !/^[\x21-\x7e]{8,256}$/.test(vkAppSecret)) problems.push('VK_APP_SECRET must be 8 to 256 printable characters without spaces');
  if ((vkAppId === null) !== (vkAppSecret === null)) problems.push('VK_APP_ID and VK_APP_SECRET must be set together');
  const metaAppSecret = text('META_APP_SECRET');
  if (metaAppSecret !== null && !/^[\x21-\x7e]{16,256}$/.test(metaAppSecret)) problems.push('META_APP_SECRET must be 16 to 256 printable characters without spaces');
  const metaVerifyToken = text('META_VERIFY_TOKEN');
  if (metaVerifyToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metaVerifyToken)) problems.push('META_VERIFY_TOKEN must be 16 to 256 printable characters without spaces');
  // Meta's ids are digits: the app's goes into the exchange of Instagram's user tokens and WhatsApp's login dialog.
  const metaAppId = text('META_APP_ID');
  if (metaAppId !== null && !/^\d{1,32}$/.test(metaAppId)) problems.push('META_APP_ID must be the Meta app’s id (digits)');
  const metaSettings = [metaAppId, metaAppSecret, metaVerifyToken].filter((v) => v !== null).length;
  if (metaSettings > 0 && metaSettings < 3) problems.push('META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN must be set together (the Meta app Instagram and WhatsApp are served through)');
  const whatsappSignupConfigId = text('WHATSAPP_SIGNUP_CONFIG_ID');
  if (whatsappSignupConfigId !== null && !/^\d{1,32}$/.test(whatsappSignupConfigId)) problems.push('WHATSAPP_SIGNUP_CONFIG_ID must be the Embedded Signup configuration’s id (digits)');
  if (whatsappSignupConfigId !== null && metaSettings < 3) problems.push('WHATSAPP_SIGNUP_CONFIG_ID needs META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN');
  const instagramLoginConfigId = text('INSTAGRAM_LOGIN_CONFIG_ID');
  if (instagramLoginConfigId !== null && !/^\d{1,32}$/.test(instagramLoginConfigId)) problems.push('INSTAGRAM_LOGIN_CONFIG_ID must be the Facebook Login for Business configuration’s id (digits)');
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }

  const trustProxy = ((): Config['trustProxy'] => {
    const raw = text('TRUST_PROXY');
    if (raw === null || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = list.filter((s) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(s));
    if (bad.length > 0) problems.push(`TRUST_PROXY must be true, false, a hop count, or addresses/CIDR ranges separated by commas; not "${bad.join('", "')}"`);
    return list;
  })();

  const roles = parseRoles(text('GATEWAY_ROLES'));
  if (roles.problem) problems.push(roles.problem);

  const config: Config = {
    production,
    port,
    host,
    publicUrl,
    previousPublicUrl,
    dataDir: resolve(text('DATA_DIR') ?? './data'),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    partnerApiKey,
    partnerBasic: partnerLogin !== null && partnerSecret !== null ? { login: partnerLogin, secret: partnerSecret } : null,
    secretKey,
    metricsToken,
    webhookAllowLoopback: bool('WEBHOOK_ALLOW_LOOPBACK', !production),
    transportMode: transportMode === 'live' ? 'live' : 'sandbox',
    telegramApiUrl: (url('TELEGRAM_API_URL', ['http:', 'https:']) ?? 'https://api.telegram.org').replace(/\/+$/, ''),
    maxApiUrl: (url('MAX_API_URL', ['http:', 'https:']) ?? 'https://platform-api2.max.ru').replace(/\/+$/, ''),
    avito: avitoClientId !== null && avitoClientSecret !== null ? { clientId: avitoClientId, clientSecret: avitoClientSecret } : null,
    avitoApiUrl: (url('AVITO_API_URL', ['http:', 'https:']) ?? 'https://api.avito.ru').replace(/\/+$/, ''),
    telegramApp:
      telegramApiId !== null && telegramApiHash !== null
        ? { apiId: Number(telegramApiId), apiHash: telegramApiHash, dc: dcMatch ? { host: dcMatch[1]!, port: Number(dcMatch[2]) } : null }
        : null,
    vk: vkAppId !== null && vkAppSecret !== null ? { appId: vkAppId, appSecret: vkAppSecret } : null,
    vkApiUrl: (url('VK_API_URL', ['http:', 'https:']) ?? 'https://api.vk.com').replace(/\/+$/, ''),
    vkOauthUrl: (url('VK_OAUTH_URL', ['http:', 'https:']) ?? 'https://oauth.vk.com').replace(/\/+$/, ''),
    graphApiUrl: (url('GRAPH_API_URL', ['http:', 'https:']) ?? 'https://graph.facebook.com').replace(/\/+$/, ''),
    metaAppSecret,
    metaVerifyToken,
    metaAppId,
    whatsappSignupConfigId,
    instagramLoginConfigId,
    logLevel,
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    sandboxLatencyMs: int('SANDBOX_LATENCY_MS', 0, 0, 60_000),
    sessionLeaseMs: int('SESSION_LEASE_SECONDS', 20, 2, 300) * 1000,
    whatsappWsUrl: url('WHATSAPP_WS_URL', ['ws:', 'wss:']),
    whatsappPersonal: bool('WHATSAPP_PERSONAL', false),
    personalPacing: bool('PERSONAL_PACING', true),
    uploadDailyLimitBytes: int('UPLOAD_DAILY_LIMIT_MB', 1024, 0, 1_048_576) * 1024 * 1024,
    trustProxy,
    roles: roles.roles,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
