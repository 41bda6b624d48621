import { sql } from 'kysely';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../testing/harness.ts';
import { lastingDatabase, startLiveAt, type RestartAt } from '../testing/restarted-gateway.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { startMaxEmulator, type MaxEmulator } from '../testing/max-emulator.ts';
import { TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { databaseKind, type TestDatabase } from '../testing/test-database.ts';

const MAX_TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_shop';
const ALL_KINDS = ['message', 'edited_message', 'callback_query', 'message_reaction'];
const anna = { id: 4242, is_bot: false, first_name: 'Anna', username: 'anna_k' };
const maxAnna = { user_id: 4242, first_name: 'Anna', name: 'Anna', username: 'anna_k', is_bot: false, last_activity_time: 1_795_000_000_000 };
const nothingDone = { refreshed: 0, elsewhere: 0, revoked: 0, superseded: 0, failed: 0, withdraw_failed: 0 };
const inPrivate = (messageId: number, fields: Record<string, unknown>) => ({ message_id: messageId, date: 1_795_000_000, chat: { id: 4242, type: 'private' }, from: anna, ...fields });

/**
 * Gateways started one after another on one database, as an upgrade or a new PUBLIC_URL restarts them: the bots'
 * registrations made by one are found out of date, or not, by the next.
 */
describe(`live bots' hooks brought up to date by the gateway (${databaseKind()})`, () => {
  let telegram: TelegramEmulator;
  let max: MaxEmulator;
  let database: TestDatabase;
  let t: TestGateway | null = null;
  let base = '';
  let token: string;
  let telegramChannel: string;
  let maxChannel: string;
  let connectedFingerprint: string | null;
  let clock: ManualClock;
  let updateId = 1;

  /** A live gateway on the shared database (see RestartAt), once its start-up pass of the hook refresh has ended: that pass. */
  const start = async (at: RestartAt = {}) => {
    await t?.close();
    ({ t, base } = await startLiveAt(database, { TELEGRAM_API_URL: telegram.url, MAX_API_URL: max.url, SECRET_KEY: 'k'.repeat(40) }, at));
    return t.gateway.botHooks.refresh();
  };
  const gateway = () => t!;
  const portOf = (url: string) => Number(new URL(url).port);
  const fingerprintOf = async (channelId: string) =>
    (await sql<{ hook_fingerprint: string | null }>`select hook_fingerprint from channels where id = ${channelId}`.execute(gateway().gateway.database.db)).rows[0]!.hook_fingerprint;
  const forget = (channelId: string) => sql`update channels set hook_fingerprint = null where id = ${channelId}`.execute(gateway().gateway.database.db);
  const telegramCalls = (method: string, since = 0) => telegram.calls.slice(since).filter((c) => c.method === method);
  /** Calls the Bot API as the gateway's earlier release did. */
  const callTelegram = async (method: string, params: Record<string, unknown>) => {
    const res = await request(`${telegram.url}/bot${TELEGRAM_TOKEN}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    expect(await res.body.json()).toMatchObject({ ok: true });
  };
  const textOf = async (messengerMessageId: string) =>
    (await sql<{ text: string | null }>`select text from messages where channel_id = ${telegramChannel} and messenger_message_id = ${messengerMessageId}`.execute(gateway().gateway.database.db)).rows[0]?.text;

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    max = await startMaxEmulator();
    max.addBot(MAX_TOKEN, { user_id: 10002, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    database = await lastingDatabase('gw-hooks-');
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    await telegram?.close();
    await max?.close();
  });

  it('records what connecting registered: a channel connected now is not registered again', async () => {
    await start();
    ({ token } = await gateway().newAccount());
    const connect = async (body: Record<string, unknown>) => {
      const res = await gateway().call('POST', '/v2/channels', { token, body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data[0].channel_id as string;
    };
    telegramChannel = await connect({ transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } });
    maxChannel = await connect({ transport: 'maxbot', credentials: { access_token: MAX_TOKEN } });
    connectedFingerprint = await fingerprintOf(telegramChannel);
    expect(connectedFingerprint).toMatch(/^v1:/);
    expect(await fingerprintOf(maxChannel)).toMatch(/^v1:/);
    const telegramBefore = telegram.calls.length;
    const maxBefore = max.calls.length;
    expect(await gateway().gateway.botHooks.refresh()).toEqual(nothingDone);
    expect(telegram.calls.length).toBe(telegramBefore);
    expect(max.calls.length).toBe(maxBefore);
    // Reconnecting records it too.
    await forget(maxChannel);
    const reinit = await gateway().call('POST', `/v2/channels/${maxChannel}/reinit`, { token, body: { credentials: { access_token: MAX_TOKEN } } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    expect(await fingerprintOf(maxChannel)).toMatch(/^v1:/);
  });

  it('sets the webhook of a telegram channel registered by an earlier release again at start: edits reach it from then on', async () => {
    // As the release before registered it: messages only, and no fingerprint kept.
    await callTelegram('setWebhook', { url: `${base}/hooks/telegram/${telegramChannel}`, secret_token: telegram.webhookOf(TELEGRAM_TOKEN)!.secret, allowed_updates: ['message'] });
    await forget(telegramChannel);
    expect(await telegram.deliver(TELEGRAM_TOKEN, { update_id: updateId++, message: inPrivate(7, { text: 'Где мой заказ?' }) })).toBe(200);
    await expect(telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(7, { text: 'Где мой заказ №42?' }))).rejects.toThrow(/does not take edited_message/);

    const since = telegram.calls.length;
    await start({ port: portOf(base) });
    const [set] = telegramCalls('setWebhook', since);
    expect(set!.params).toEqual({ url: `${base}/hooks/telegram/${telegramChannel}`, secret_token: expect.any(String), allowed_updates: ALL_KINDS });
    expect(telegram.webhookOf(TELEGRAM_TOKEN)).toMatchObject({ allowedUpdates: ALL_KINDS });
    // The updates Telegram holds are kept, and the MAX channel, up to date, is not called.
    expect(telegramCalls('deleteWebhook', since)).toEqual([]);
    expect(max.calls.filter((c) => c.path === '/subscriptions' && c.at >= set!.at)).toEqual([]);
    expect(await fingerprintOf(telegramChannel)).toBe(connectedFingerprint);

    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(7, { text: 'Где мой заказ №42?' }))).toBe(200);
    expect(await textOf('7')).toBe('Где мой заказ №42?');
  });

  it('leaves bots posting under an earlier PUBLIC_URL alone at a new one, unless it is PREVIOUS_PUBLIC_URL: then moves them', async () => {
    const old = base;
    const telegramBefore = telegram.calls.length;
    const maxBefore = max.calls.length;
    // Another address, as far as this gateway knows: another deployment's, which it must not take the bots from.
    expect(await start()).toMatchObject({ refreshed: 0, elsewhere: 2, failed: 0 });
    expect(base).not.toBe(old);
    expect(telegramCalls('setWebhook', telegramBefore)).toEqual([]);
    expect(max.calls.slice(maxBefore).filter((c) => c.method !== 'GET')).toEqual([]);
    expect(telegram.webhookOf(TELEGRAM_TOKEN)?.url).toBe(`${old}/hooks/telegram/${telegramChannel}`);
    expect(max.subscriptionsOf(MAX_TOKEN).map((s) => s.url)).toEqual([`${old}/hooks/maxbot/${maxChannel}`]);
    // Stored as checked: the next pass, past the claims, does not ask the platforms again.
    const checked = await fingerprintOf(telegramChannel);
    expect(checked).not.toBe(connectedFingerprint);
    const since = { telegram: telegram.calls.length, max: max.calls.length };
    expect(await start({ port: portOf(base), clock: new ManualClock(Date.now() + 10 * 60_000) })).toEqual(nothingDone);
    expect([telegram.calls.length, max.calls.length]).toEqual([since.telegram, since.max]);

    // The operator names the old address: the bots are moved from it, and MAX's subscription there removed.
    expect(await start({ port: portOf(base), previousUrl: old })).toMatchObject({ refreshed: 2, elsewhere: 0, failed: 0 });
    expect(telegram.webhookOf(TELEGRAM_TOKEN)).toMatchObject({ url: `${base}/hooks/telegram/${telegramChannel}`, allowedUpdates: ALL_KINDS });
    expect(max.subscriptionsOf(MAX_TOKEN)).toEqual([
      { url: `${base}/hooks/maxbot/${maxChannel}`, secret: expect.any(String), update_types: ['message_created', 'message_edited', 'message_callback'] },
    ]);
    expect(await telegram.deliver(TELEGRAM_TOKEN, { update_id: updateId++, message: inPrivate(8, { text: 'Я здесь' }) })).toBe(200);
    expect(await textOf('8')).toBe('Я здесь');
    const maxMessage = { timestamp: Date.now(), sender: maxAnna, recipient: { chat_id: 7001, chat_type: 'dialog', user_id: 10002, post_id: null }, body: { mid: 'mid.hook-refresh-1', seq: 1, text: 'И я' } };
    expect(await max.deliver(MAX_TOKEN, { update_type: 'message_created', timestamp: Date.now(), message: maxMessage })).toBe(200);
    const { rows } = await sql<{ text: string }>`select text from messages where channel_id = ${maxChannel} and messenger_message_id = 'mid.hook-refresh-1'`.execute(gateway().gateway.database.db);
    expect(rows).toEqual([{ text: 'И я' }]);

    // Once it is unset again, every channel is checked once more (the bots, here now, are registered as they are).
    expect(await start({ port: portOf(base) })).toMatchObject({ refreshed: 2, elsewhere: 0, failed: 0 });
    expect(telegram.webhookOf(TELEGRAM_TOKEN)?.url).toBe(`${base}/hooks/telegram/${telegramChannel}`);
  });

  it('calls no platform for channels up to date at the next start', async () => {
    const telegramBefore = telegram.calls.length;
    const maxBefore = max.calls.length;
    await start({ port: portOf(base), clock: new ManualClock(Date.now()) });
    expect(await gateway().gateway.botHooks.refresh()).toEqual(nothingDone);
    expect(telegram.calls.length).toBe(telegramBefore);
    expect(max.calls.length).toBe(maxBefore);
  });

  it('leaves the registration as it was when the platform fails, and a later pass registers it', async () => {
    clock = new ManualClock(Date.now());
    await start({ port: portOf(base), clock });
    await forget(telegramChannel);
    telegram.failNext('setWebhook', 1, 502, 1, 'Bad Gateway');
    const since = telegram.calls.length;
    expect(await gateway().gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, failed: 1, lastError: `${telegramChannel}: Bad Gateway` });
    expect(await fingerprintOf(telegramChannel)).toBeNull();
    // Another pass soon after (this process's or another's) leaves it to the one that claimed it.
    expect(await gateway().gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, failed: 0 });
    expect(telegramCalls('setWebhook', since)).toHaveLength(1);

    clock.advance(5 * 60_000);
    expect(await gateway().gateway.botHooks.refresh()).toMatchObject({ refreshed: 1, failed: 0 });
    expect(telegramCalls('setWebhook', since)).toHaveLength(2);
    expect(await fingerprintOf(telegramChannel)).toMatch(/^v1:/);
  });

  it('leaves a bot whose webhook was removed meanwhile where it is, and asks no more', async () => {
    await callTelegram('deleteWebhook', {});
    await forget(telegramChannel);
    const since = telegram.calls.length;
    expect(await gateway().gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, elsewhere: 1 });
    expect(telegramCalls('setWebhook', since)).toEqual([]);
    expect(await fingerprintOf(telegramChannel)).toMatch(/^v1:/);
    clock.advance(5 * 60_000);
    expect(await gateway().gateway.botHooks.refresh()).toEqual(nothingDone);
    expect(telegram.calls.length).toBe(since + 1);
  });

  it('switches a channel whose token was revoked off, as a send does', async () => {
    telegram.revoke(TELEGRAM_TOKEN);
    max.revoke(MAX_TOKEN);
    await forget(maxChannel);
    await forget(telegramChannel);
    expect(await gateway().gateway.botHooks.refresh()).toMatchObject({ revoked: 2, failed: 0 });
    for (const channelId of [telegramChannel, maxChannel]) {
      const channel = (await gateway().call('GET', `/v2/channels/${channelId}`, { token })).json().data[0];
      expect(channel).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    }
  });
});
