import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../storage/database.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import type { TestGateway } from '../testing/harness.ts';
import { startLiveAt } from '../testing/restarted-gateway.ts';
import { liveOwner, nextOwner, recordedTexts, sendStatuses } from '../testing/session-takeover.ts';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.ts';
import { telegramAccountFake } from '../testing/telegram-account-fake.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { telegramRandomId } from '../transports/tgapi/messaging.ts';

const self = { id: 710100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
const anna = { id: 710300, firstName: 'Anna', username: 'anna_k', phone: '79991112233' };
/** Short, so that the test waits little: a lapsed lease is taken over within 4 s plus a renewal (1 s). */
const LEASE_SECONDS = 4;
const ENV = { SECRET_KEY: 't'.repeat(40), SESSION_LEASE_SECONDS: String(LEASE_SECONDS) };

/**
 * Gateways on one PostgreSQL running one personal Telegram session, against one fake Telegram (the real client
 * library, mtcute, answered by the fake in this process). The gateways run in this process too: the fake's stub
 * clients cannot leave it. The first one's death is made as a SIGKILL makes it: its database connections are cut at
 * the TCP level (no hook runs, no lease is let go, nothing more is recorded) and Telegram hears nothing more from it,
 * at the worst moment: Telegram has just made its message, and its answer is lost.
 */
describe.runIf(databaseKind() === 'postgres')('a personal Telegram session moving between gateways', () => {
  const fake = telegramAccountFake({ self, seed: 'takeover' });
  fake.addUser(anna);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let direct: Database;
  const gateways: { a?: TestGateway; b?: TestGateway; c?: TestGateway } = {};
  let token: string;
  let channelId: string;

  const send = async (via: TestGateway, text: string) => {
    const res = await via.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, text } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.request_id as string;
  };
  const allSent = (requestIds: string[], timeoutMs: number) =>
    eventually(async () => {
      const statuses = await sendStatuses(direct.db, requestIds);
      return requestIds.every((id) => statuses[id] === 'sent') ? statuses : undefined;
    }, timeoutMs);
  const recordedOnce = (text: string) => eventually(async () => ((await recordedTexts(direct.db, 'inbound', [text]))[text] === 1 ? true : undefined), 20_000);
  /** How many messages Telegram holds with each text. */
  const inTelegram = (texts: string[]) => Object.fromEntries(texts.map((text) => [text, [...fake.messages.values()].filter((m) => m.text === text).length]));

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.target.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const { hostname, port } = new URL(database.target.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port || 5432) });
    const throughProxy: TestDatabase = { target: { kind: 'postgres', url: proxy.url(database.target.url) }, drop: async () => {} };
    ({ t: gateways.a } = await startLiveAt(throughProxy, ENV, {}, { tgapiClients: fake.clientsOf('a') }));
    direct = await openDatabase(database.target);
    const account = await gateways.a.newAccount();
    token = account.token;
    ({ channel_id: channelId } = await channelClient(gateways.a, token).create('tgapi'));
    // The phone scans the code once it is shown (it comes from Telegram after the create's answer).
    await eventually(async () => ((await direct.db.selectFrom('events').select('id').where('name', '=', 'channel.qr_update').executeTakeFirst()) ? true : undefined));
    fake.scan();
    await eventually(async () => (gateways.a!.gateway.sessions?.running().includes(channelId) ? true : undefined));
    ({ t: gateways.b } = await startLiveAt(database, ENV, {}, { tgapiClients: fake.clientsOf('b') }));
  }, 60_000);

  afterAll(async () => {
    await gateways.c?.close();
    await gateways.b?.close();
    // The first gateway is given its database back only to be closed: it finds its lease gone and does nothing more.
    await proxy?.restore();
    await gateways.a?.close();
    await proxy?.close();
    await direct?.close();
    await database?.drop();
  });

  it('is taken over after its owner dies mid-send, and the send repeated by the new owner is the same message to Telegram', async () => {
    const a = gateways.a!;
    const b = gateways.b!;
    fake.customerWrites(anna.id, 'Добрый день');
    await recordedOnce('Добрый день');
    const first = await send(a, 'Здравствуйте, Анна');
    await allSent([first], 10_000);
    const heldBy = (await liveOwner(direct.db, channelId))!;

    // The next send: Telegram makes the message, and the gateway dies before it hears so.
    let killedAt = 0;
    fake.crashAfter('messages.sendMessage', 'a', async () => {
      killedAt = performance.now();
      await proxy.cut();
    });
    const cutOff = await send(a, 'Ваш заказ отправлен');
    await eventually(async () => (killedAt > 0 ? true : undefined));
    // While nobody runs the session: the customer writes (Telegram keeps it in the account's updates), and the other
    // gateway accepts a send.
    fake.customerWrites(anna.id, 'Спасибо! А когда доставка?');
    fake.customerWrites(anna.id, 'Вы тут?');
    const during = await send(b, 'Завтра до обеда');

    const took = await nextOwner(direct.db, channelId, heldBy, killedAt);
    await eventually(async () => (b.gateway.sessions?.running().includes(channelId) ? true : undefined));
    const runningAt = performance.now() - killedAt;
    await recordedOnce('Спасибо! А когда доставка?');
    await recordedOnce('Вы тут?');
    const caughtUpAt = performance.now() - killedAt;
    // The send the dead gateway had claimed is the new owner's at once, not when that claim lapses (30 s).
    await allSent([cutOff, during], 30_000);
    const sentAt = performance.now() - killedAt;
    console.info(`tgapi takeover after a kill: lease held elsewhere after ${Math.round(took.ms)} ms, session running after ${Math.round(runningAt)} ms, missed messages recorded after ${Math.round(caughtUpAt)} ms, every send sent after ${Math.round(sentAt)} ms`);
    expect(took.ms).toBeLessThan(30_000);
    expect(sentAt).toBeLessThan(20_000);

    // The cut-off send went to Telegram twice, under one random id derived from its request: one message.
    const asked = fake.calls.filter((c) => c._ === 'messages.sendMessage' && c.message === 'Ваш заказ отправлен');
    expect(asked).toHaveLength(2);
    expect(asked.map((c) => String(c.randomId))).toEqual([String(await telegramRandomId(cutOff)), String(await telegramRandomId(cutOff))]);
    const texts = ['Здравствуйте, Анна', 'Ваш заказ отправлен', 'Завтра до обеда'];
    expect(inTelegram(texts)).toEqual(Object.fromEntries(texts.map((t) => [t, 1])));
    expect(await recordedTexts(direct.db, 'outbound', texts)).toEqual(Object.fromEntries(texts.map((t) => [t, 1])));
    const made = [...fake.messages.values()].find((m) => m.text === 'Ваш заказ отправлен')!;
    const stored = await direct.db.selectFrom('messages').select('messenger_message_id').where('request_id', '=', cutOff).executeTakeFirstOrThrow();
    expect(stored.messenger_message_id).toBe(String(made.id));
    expect(await recordedTexts(direct.db, 'inbound', ['Добрый день', 'Спасибо! А когда доставка?', 'Вы тут?'])).toEqual({ 'Добрый день': 1, 'Спасибо! А когда доставка?': 1, 'Вы тут?': 1 });
    // Nothing reached Telegram from the dead gateway after its death.
    expect(fake.callers.filter((c) => c.label === 'a').at(-1)).toEqual({ label: 'a', method: 'messages.sendMessage' });
  }, 90_000);

  it('is handed over at once by a gateway stopping, and never runs in two at a time', async () => {
    const b = gateways.b!;
    ({ t: gateways.c } = await startLiveAt(database, ENV, {}, { tgapiClients: fake.clientsOf('c') }));
    const c = gateways.c;
    const heldBy = (await liveOwner(direct.db, channelId))!;
    const stopping = b.close();
    const stoppedAt = performance.now();
    const took = await nextOwner(direct.db, channelId, heldBy, stoppedAt);
    await stopping;
    gateways.b = undefined;
    await eventually(async () => (c.gateway.sessions?.running().includes(channelId) ? true : undefined));
    console.info(`tgapi hand-over on stop: lease held elsewhere after ${Math.round(took.ms)} ms, session running after ${Math.round(performance.now() - stoppedAt)} ms`);
    // Let go, not lapsed: taken at once (the next gateway is told), well before the lease could have lapsed.
    expect(took.ms).toBeLessThan(LEASE_SECONDS * 1000);

    fake.customerWrites(anna.id, 'Получила, спасибо');
    await recordedOnce('Получила, спасибо');
    const answer = await send(c, 'Рады помочь!');
    await allSent([answer], 10_000);
    expect(inTelegram(['Рады помочь!'])).toEqual({ 'Рады помочь!': 1 });
    // The stopping gateway's last call came before the next one's first: one connection at a time.
    const lastOfB = fake.callers.findLastIndex((x) => x.label === 'b');
    const firstOfC = fake.callers.findIndex((x) => x.label === 'c');
    expect(lastOfB).toBeLessThan(firstOfC);
    // Telegram never saw the session open in two places at once (it would have refused both with AUTH_KEY_DUPLICATED).
    expect(fake.duplicated).toEqual([]);
    expect(await recordedTexts(direct.db, 'inbound', ['Добрый день', 'Спасибо! А когда доставка?', 'Вы тут?'])).toEqual({ 'Добрый день': 1, 'Спасибо! А когда доставка?': 1, 'Вы тут?': 1 });
  }, 60_000);
});
