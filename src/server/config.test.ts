import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults for the demo', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      production: false,
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      previousPublicUrl: null,
      databaseUrl: null,
      redisUrl: null,
      webhookAllowLoopback: true,
      transportMode: 'sandbox',
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('closes loopback webhooks and listens on every interface in production', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(config.webhookAllowLoopback).toBe(false);
    expect(config.host).toBe('0.0.0.0');
  });

  it('reads every documented name', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '::',
      PUBLIC_URL: 'https://gw.example.com/',
      PREVIOUS_PUBLIC_URL: 'https://old-gw.example.com/',
      DATA_DIR: '/var/lib/gateway',
      DATABASE_URL: 'postgres://gw@db/gw',
      REDIS_URL: 'redis://cache:6379',
      PARTNER_API_KEY: 'p'.repeat(30),
      SECRET_KEY: 's'.repeat(40),
      WEBHOOK_ALLOW_LOOPBACK: 'false',
      TRANSPORT_MODE: 'live',
      TELEGRAM_API_URL: 'https://tg-proxy.example.com/',
      MAX_API_URL: 'https://max-proxy.example.com/',
      GRAPH_API_URL: 'https://graph-proxy.example.com/',
      META_APP_SECRET: '0123456789abcdef0123456789abcdef',
      META_VERIFY_TOKEN: 'verify-me-please-42',
      META_APP_ID: '1234567890123456',
      WHATSAPP_SIGNUP_CONFIG_ID: '987654321098765',
      METRICS_TOKEN: 'm'.repeat(32),
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '::',
      publicUrl: 'https://gw.example.com',
      previousPublicUrl: 'https://old-gw.example.com',
      dataDir: '/var/lib/gateway',
      databaseUrl: 'postgres://gw@db/gw',
      redisUrl: 'redis://cache:6379',
      partnerApiKey: 'p'.repeat(30),
      secretKey: 's'.repeat(40),
      webhookAllowLoopback: false,
      transportMode: 'live',
      telegramApiUrl: 'https://tg-proxy.example.com',
      maxApiUrl: 'https://max-proxy.example.com',
      graphApiUrl: 'https://graph-proxy.example.com',
      metaAppSecret: '0123456789abcdef0123456789abcdef',
      metaVerifyToken: 'verify-me-please-42',
      metaAppId: '1234567890123456',
      whatsappSignupConfigId: '987654321098765',
      metricsToken: 'm'.repeat(32),
    });
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({}).telegramApiUrl).toBe('https://api.telegram.org');
    expect(loadConfig({}).maxApiUrl).toBe('https://platform-api2.max.ru');
    expect(loadConfig({})).toMatchObject({ graphApiUrl: 'https://graph.facebook.com', metaAppSecret: null, metaVerifyToken: null, metaAppId: null, whatsappSignupConfigId: null });
  });

  it('takes the Embedded Signup configuration, digits, only with the whole Meta app', () => {
    const app = { META_APP_ID: '1234567890', META_APP_SECRET: '0123456789abcdef0123456789abcdef', META_VERIFY_TOKEN: 'verify-me-please-42' };
    expect(loadConfig(app)).toMatchObject({ metaAppId: '1234567890', whatsappSignupConfigId: null });
    expect(() => loadConfig({ ...app, META_APP_ID: 'acme', WHATSAPP_SIGNUP_CONFIG_ID: '5-5' })).toThrow(/META_APP_ID must be[\s\S]*WHATSAPP_SIGNUP_CONFIG_ID must be/);
    expect(() => loadConfig({ WHATSAPP_SIGNUP_CONFIG_ID: '55' })).toThrow(/WHATSAPP_SIGNUP_CONFIG_ID needs META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN/);
    expect(loadConfig({ ...app, WHATSAPP_SIGNUP_CONFIG_ID: '55' })).toMatchObject({ metaAppId: '1234567890', whatsappSignupConfigId: '55' });
  });

  it('takes the Meta app’s id, secret and webhook verify token together, or none', () => {
    const together = /META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN must be set together/;
    expect(() => loadConfig({ META_APP_SECRET: '0123456789abcdef0123456789abcdef' })).toThrow(together);
    expect(() => loadConfig({ META_VERIFY_TOKEN: 'verify-me-please-42' })).toThrow(together);
    // Instagram's connect exchanges the user's token with the app's id: the secret and verify token alone no longer do.
    expect(() => loadConfig({ META_APP_SECRET: '0123456789abcdef0123456789abcdef', META_VERIFY_TOKEN: 'verify-me-please-42' })).toThrow(together);
    expect(() => loadConfig({ META_APP_ID: '1234567890' })).toThrow(together);
    expect(() => loadConfig({ META_APP_ID: '1', META_APP_SECRET: 'short', META_VERIFY_TOKEN: 'has spaces in it, see' })).toThrow(/META_APP_SECRET must be[\s\S]*META_VERIFY_TOKEN must be/);
    expect(() => loadConfig({ GRAPH_API_URL: 'ftp://graph.example.com' })).toThrow(/GRAPH_API_URL must use http: or https:/);
  });

  it('reports every bad value at once, by name', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', PREVIOUS_PUBLIC_URL: 'ftp://old.example.com', DATABASE_URL: 'mysql://x', TRANSPORT_MODE: 'mock', WEBHOOK_ALLOW_LOOPBACK: 'maybe', SECRET_KEY: 'short', METRICS_TOKEN: 'has a space in it and is long' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'PREVIOUS_PUBLIC_URL', 'DATABASE_URL', 'TRANSPORT_MODE', 'WEBHOOK_ALLOW_LOOPBACK', 'SECRET_KEY', 'METRICS_TOKEN']) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).problems).toHaveLength(7);
  });

  it('reads how long a session’s lease lasts, in whole seconds from 2 to 300', () => {
    expect(loadConfig({}).sessionLeaseMs).toBe(20_000);
    expect(loadConfig({ SESSION_LEASE_SECONDS: '4' }).sessionLeaseMs).toBe(4_000);
    for (const bad of ['1', '301', '2.5', 'soon']) expect(() => loadConfig({ SESSION_LEASE_SECONDS: bad })).toThrow(/SESSION_LEASE_SECONDS must be an integer from 2 to 300/);
  });

  it('refuses a previous PUBLIC_URL that is not an address, or is the current one', () => {
    expect(() => loadConfig({ PREVIOUS_PUBLIC_URL: 'old gateway' })).toThrow(/PREVIOUS_PUBLIC_URL is not a valid URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'https://gw.example.com', PREVIOUS_PUBLIC_URL: 'https://gw.example.com/' })).toThrow(/PREVIOUS_PUBLIC_URL must differ from PUBLIC_URL/);
  });

  it('refuses a metrics token that is also the partner key', () => {
    expect(() => loadConfig({ PARTNER_API_KEY: 'p'.repeat(30), METRICS_TOKEN: 'p'.repeat(30) })).toThrow(/METRICS_TOKEN must differ from PARTNER_API_KEY/);
  });

  it('reads which proxies to trust for the caller address', () => {
    const base = { DATA_DIR: '/tmp/x' };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.1']);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'the balancer' })).toThrow(/TRUST_PROXY/);
  });

  it('reads the Avito application, both of its keys or neither, and where Avito’s API is', () => {
    expect(loadConfig({})).toMatchObject({ avito: null, avitoApiUrl: 'https://api.avito.ru' });
    const config = loadConfig({ AVITO_CLIENT_ID: 'app-id', AVITO_CLIENT_SECRET: 'app-secret', AVITO_API_URL: 'http://127.0.0.1:9000/' });
    expect(config).toMatchObject({ avito: { clientId: 'app-id', clientSecret: 'app-secret' }, avitoApiUrl: 'http://127.0.0.1:9000' });
    expect(() => loadConfig({ AVITO_CLIENT_ID: 'app-id' })).toThrow(/AVITO_CLIENT_ID and AVITO_CLIENT_SECRET must be set together/);
    expect(() => loadConfig({ AVITO_CLIENT_ID: 'app id', AVITO_CLIENT_SECRET: 'app-secret' })).toThrow(/AVITO_CLIENT_ID must be printable/);
    expect(() => loadConfig({ AVITO_API_URL: 'ftp://avito.example' })).toThrow(/AVITO_API_URL/);
  });

  it('takes the VK application’s id and secret together, with the API’s and OAuth server’s addresses', () => {
    expect(loadConfig({})).toMatchObject({ vk: null, vkApiUrl: 'https://api.vk.com', vkOauthUrl: 'https://oauth.vk.com' });
    const config = loadConfig({ VK_APP_ID: '51234567', VK_APP_SECRET: 'vk-app-secret', VK_API_URL: 'http://127.0.0.1:9100/', VK_OAUTH_URL: 'http://127.0.0.1:9101' });
    expect(config).toMatchObject({ vk: { appId: '51234567', appSecret: 'vk-app-secret' }, vkApiUrl: 'http://127.0.0.1:9100', vkOauthUrl: 'http://127.0.0.1:9101' });
    expect(() => loadConfig({ VK_APP_ID: '51234567' })).toThrow(/VK_APP_ID and VK_APP_SECRET must be set together/);
    expect(() => loadConfig({ VK_APP_ID: 'app', VK_APP_SECRET: 'vk-app-secret' })).toThrow(/VK_APP_ID must be/);
    expect(() => loadConfig({ VK_APP_ID: '1', VK_APP_SECRET: 'has space in it' })).toThrow(/VK_APP_SECRET must be/);
    expect(() => loadConfig({ VK_OAUTH_URL: 'ftp://vk.example' })).toThrow(/VK_OAUTH_URL/);
  });

  it('bounds what an account may upload in a day, 1 GB unless UPLOAD_DAILY_LIMIT_MB says otherwise', () => {
    expect(loadConfig({}).uploadDailyLimitBytes).toBe(1024 * 1024 * 1024);
    expect(loadConfig({ UPLOAD_DAILY_LIMIT_MB: '5' }).uploadDailyLimitBytes).toBe(5 * 1024 * 1024);
    expect(loadConfig({ UPLOAD_DAILY_LIMIT_MB: '0' }).uploadDailyLimitBytes).toBe(0);
    expect(() => loadConfig({ UPLOAD_DAILY_LIMIT_MB: '-1' })).toThrow(/UPLOAD_DAILY_LIMIT_MB/);
  });

  it('reads what the process does from GATEWAY_ROLES, both by default, and names a misspelled role', () => {
    expect(loadConfig({}).roles).toEqual({ api: true, workers: true });
    expect(loadConfig({ GATEWAY_ROLES: 'api' }).roles).toEqual({ api: true, workers: false });
    expect(loadConfig({ GATEWAY_ROLES: ' Workers ' }).roles).toEqual({ api: false, workers: true });
    expect(loadConfig({ GATEWAY_ROLES: 'api,workers' }).roles).toEqual({ api: true, workers: true });
    expect(() => loadConfig({ GATEWAY_ROLES: 'api,worker' })).toThrow(/GATEWAY_ROLES must list api, workers or both.*"worker"/);
    expect(() => loadConfig({ GATEWAY_ROLES: ',' })).toThrow(/GATEWAY_ROLES .*no role/);
  });
});
