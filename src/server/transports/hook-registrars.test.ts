import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutdatedChannel } from '../core/channels/hook-refresh.ts';
import { startMaxEmulator, type MaxEmulator } from '../testing/max-emulator.ts';
import { TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { callPacer } from './call-pacer.ts';
import { maxApi } from './maxbot/bot-api.ts';
import { maxLimits, type MaxBotDeps } from './maxbot/bot-driver.ts';
import { maxSubscriptionRegistrar } from './maxbot/bot-subscription.ts';
import { botApi } from './telegram/bot-api.ts';
import type { TelegramBotDeps } from './telegram/bot-driver.ts';
import { botPacer } from './telegram/bot-pacer.ts';
import { telegramWebhookRegistrar } from './telegram/bot-webhook.ts';

const MAX_TOKEN = 'registrar-test-token-0123456789';
const GATEWAY = 'https://gw.example.com';
const PREVIOUS = 'https://old-gw.example.com';
/** Another deployment with the same channels: a staging copy restored from this one's database. */
const ANOTHER = 'https://staging.example.com';
const CHANNEL = '00000000-0000-4000-8000-000000000001';
const OTHER_CHANNEL = '00000000-0000-4000-8000-000000000002';

const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };
const hookSecret = (id: string) => `secret-${id.slice(-4)}`;
const live = () => new AbortController().signal;

describe('the telegram webhook registrar, against a local Telegram', () => {
  let telegram: TelegramEmulator;
  let deps: TelegramBotDeps;
  const channel: OutdatedChannel = { id: CHANNEL, credentials: JSON.stringify({ telegram_token: TELEGRAM_TOKEN }), messengerId: '123456789', fingerprint: null };
  const hookAt = (host: string, id = CHANNEL) => `${host}/hooks/telegram/${id}`;
  const pointBotAt = (url: string) => botApi(telegram.url, TELEGRAM_TOKEN).call('setWebhook', { url, secret_token: 'old', allowed_updates: ['message'] });
  const called = (method: string, since: number) => telegram.calls.slice(since).filter((c) => c.method === method);

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    deps = { apiUrl: telegram.url, publicUrl: GATEWAY, cipher, hookSecret };
  });
  afterAll(() => telegram?.close());

  it('sets the webhook again where the bot posts to this gateway’s hook for the channel', async () => {
    await pointBotAt(hookAt(GATEWAY));
    expect(await telegramWebhookRegistrar(deps, botPacer()).refresh(channel, live())).toBe('registered');
    expect(telegram.webhookOf(TELEGRAM_TOKEN)).toMatchObject({ url: hookAt(GATEWAY), secret: hookSecret(CHANNEL), allowedUpdates: ['message', 'edited_message', 'callback_query', 'message_reaction'] });
  });

  it('leaves a bot posting to the channel’s hook at another host, unless that host is PREVIOUS_PUBLIC_URL', async () => {
    await pointBotAt(hookAt(PREVIOUS));
    const since = telegram.calls.length;
    expect(await telegramWebhookRegistrar(deps, botPacer()).refresh(channel, live())).toBe('elsewhere');
    expect(called('setWebhook', since)).toEqual([]);
    expect(telegram.webhookOf(TELEGRAM_TOKEN)?.url).toBe(hookAt(PREVIOUS));

    expect(await telegramWebhookRegistrar(deps, botPacer(), PREVIOUS).refresh(channel, live())).toBe('registered');
    expect(telegram.webhookOf(TELEGRAM_TOKEN)?.url).toBe(hookAt(GATEWAY));
  });

  it('never takes a bot from another deployment, nor from another channel', async () => {
    for (const url of [hookAt(ANOTHER), hookAt(GATEWAY, OTHER_CHANNEL)]) {
      await pointBotAt(url);
      const since = telegram.calls.length;
      expect(await telegramWebhookRegistrar(deps, botPacer(), PREVIOUS).refresh(channel, live())).toBe('elsewhere');
      expect(called('setWebhook', since)).toEqual([]);
      expect(telegram.webhookOf(TELEGRAM_TOKEN)?.url).toBe(url);
    }
  });

  it('withdraws: deletes the webhook only while it is still the channel’s hook here', async () => {
    const registrar = telegramWebhookRegistrar(deps, botPacer(), PREVIOUS);
    await pointBotAt(hookAt(GATEWAY, OTHER_CHANNEL));
    let since = telegram.calls.length;
    await registrar.withdraw(channel, live());
    expect(called('deleteWebhook', since)).toEqual([]);
    expect(telegram.webhookOf(TELEGRAM_TOKEN)?.url).toBe(hookAt(GATEWAY, OTHER_CHANNEL));

    await pointBotAt(hookAt(GATEWAY));
    since = telegram.calls.length;
    await registrar.withdraw(channel, live());
    expect(called('deleteWebhook', since)).toHaveLength(1);
    expect(telegram.webhookOf(TELEGRAM_TOKEN)).toBeUndefined();
  });

  it('tells a withdrawal that failed', async () => {
    await pointBotAt(hookAt(GATEWAY));
    telegram.failNext('deleteWebhook', 1, 502, 1, 'Bad Gateway');
    await expect(telegramWebhookRegistrar(deps, botPacer()).withdraw(channel, live())).rejects.toThrow(/Bad Gateway/);
  });

  it('fingerprints PREVIOUS_PUBLIC_URL only when it is set', () => {
    const without = telegramWebhookRegistrar(deps, botPacer()).fingerprint;
    expect(telegramWebhookRegistrar(deps, botPacer(), null).fingerprint).toBe(without);
    expect(telegramWebhookRegistrar(deps, botPacer(), PREVIOUS).fingerprint).not.toBe(without);
  });
});

describe('the MAX subscription registrar, against a local MAX', () => {
  let max: MaxEmulator;
  let deps: MaxBotDeps;
  const channel: OutdatedChannel = { id: CHANNEL, credentials: JSON.stringify({ access_token: MAX_TOKEN }), messengerId: '10002', fingerprint: null };
  const hookAt = (host: string, id = CHANNEL) => `${host}/hooks/maxbot/${id}`;
  const subscribe = (url: string) => maxApi(max.url, MAX_TOKEN).call('POST', '/subscriptions', { body: { url, update_types: ['message_created'], secret: 'old-secret' } });
  const subscribed = () => max.subscriptionsOf(MAX_TOKEN).map((s) => s.url);
  const changes = (since: number) => max.calls.slice(since).filter((c) => c.path === '/subscriptions' && c.method !== 'GET');
  const registrar = (previous: string | null = null) => maxSubscriptionRegistrar(deps, callPacer(maxLimits, () => true), previous);

  beforeAll(async () => {
    max = await startMaxEmulator();
    max.addBot(MAX_TOKEN, { user_id: 10002, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    deps = { apiUrl: max.url, publicUrl: GATEWAY, cipher, hookSecret };
  });
  beforeEach(async () => {
    for (const url of subscribed()) await maxApi(max.url, MAX_TOKEN).call('DELETE', '/subscriptions', { query: { url } });
  });
  afterAll(() => max?.close());

  it('leaves a bot subscribed to the channel’s hook at another deployment only, and calls nothing but the list', async () => {
    await subscribe(hookAt(ANOTHER));
    const since = max.calls.length;
    expect(await registrar(PREVIOUS).refresh(channel, live())).toBe('elsewhere');
    expect(changes(since)).toEqual([]);
    expect(subscribed()).toEqual([hookAt(ANOTHER)]);
  });

  it('leaves a bot subscribed under an earlier address alone without PREVIOUS_PUBLIC_URL', async () => {
    await subscribe(hookAt(PREVIOUS));
    const since = max.calls.length;
    expect(await registrar().refresh(channel, live())).toBe('elsewhere');
    expect(changes(since)).toEqual([]);
  });

  it('moves a bot from PREVIOUS_PUBLIC_URL, removing the channel’s subscription there and none at other hosts', async () => {
    await subscribe(hookAt(PREVIOUS));
    await subscribe(hookAt(ANOTHER));
    await subscribe(hookAt(GATEWAY, OTHER_CHANNEL));
    expect(await registrar(PREVIOUS).refresh(channel, live())).toBe('registered');
    expect(subscribed().sort()).toEqual([hookAt(ANOTHER), hookAt(GATEWAY)].sort());
    expect(max.subscriptionsOf(MAX_TOKEN).find((s) => s.url === hookAt(GATEWAY))).toMatchObject({ secret: hookSecret(CHANNEL) });
  });

  it('withdraws: removes the channel’s own subscription here, and no other', async () => {
    await subscribe(hookAt(GATEWAY));
    await subscribe(hookAt(GATEWAY, OTHER_CHANNEL));
    await subscribe(hookAt(ANOTHER));
    const since = max.calls.length;
    await registrar(PREVIOUS).withdraw(channel, live());
    expect(changes(since).map((c) => `${c.method} ${c.query.url}`)).toEqual([`DELETE ${hookAt(GATEWAY)}`]);
    expect(subscribed().sort()).toEqual([hookAt(ANOTHER), hookAt(GATEWAY, OTHER_CHANNEL)].sort());
  });

  it('tells a withdrawal that failed', async () => {
    max.failNext('DELETE /subscriptions', 1, 502);
    await expect(registrar().withdraw(channel, live())).rejects.toThrow();
  });
});
