import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import type { TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { lastingDatabase, startLiveAt } from '../testing/restarted-gateway.ts';
import { telegramAccountFake, type PasswordFlood, type TelegramAccountFake } from '../testing/telegram-account-fake.ts';
import { databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { mtcuteClients, type TgapiClientFactory } from '../transports/tgapi/mtcute-client.ts';
import { PASSWORD_PAUSE_SECONDS, WRONG_PASSWORDS_ALLOWED } from '../transports/tgapi/password-throttle.ts';

const self = { id: 720100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
const ENV = { SECRET_KEY: 'u'.repeat(40) };
const PASSWORD = 'correct horse battery staple';

/** A Telegram data centre whose network drops everything: connections are taken, and nothing ever comes back. */
async function blackhole(): Promise<{ port: number; sockets: Set<Socket>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {}).on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    sockets,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The call's answer and how long it took (wall time: what a CRM waits). */
async function timed<T>(work: Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await work;
  return { answer, ms: performance.now() - started };
}

describe(`personal Telegram accounts: logging in while Telegram fails (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let database: TestDatabase;
  let t: TestGateway;
  let token: string;
  let api: ReturnType<typeof channelClient>;
  let stream: ReturnType<typeof eventStream>;
  /** The clients the gateway makes: the test points them at the Telegram of each case. */
  let clients: TgapiClientFactory;

  const create = () => t.call('POST', '/v2/channels', { token, body: { transport: 'tgapi', credentials: {} } });

  beforeAll(async () => {
    database = await lastingDatabase('tgapi-login-');
    ({ t } = await startLiveAt(database, ENV, { clock }, { tgapiClients: () => clients() }));
    const account = await t.newAccount();
    token = account.token;
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, account.accountId);
    // The gateway's first create loads what it uses: the answers timed below are those of a warm gateway.
    clients = telegramAccountFake({ self, seed: 'warm-up' }).clients;
    const warmUp = await create();
    expect(warmUp.statusCode).toBe(201);
    await qrShown(warmUp.json().data[0].channel_id as string);
  });
  beforeEach(async () => {
    await stream.since();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const qrShown = (channelId: string) =>
    eventually(async () => ((await stream.since()).find((e) => e.name === 'channel.qr_update' && e.payload.channel_id === channelId) ? true : undefined));
  /** A channel logged in up to its password step, through `fake`. */
  const atPasswordStep = async (fake: TelegramAccountFake) => {
    clients = fake.clients;
    const created = await create();
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data[0].channel_id as string;
    await qrShown(id);
    fake.scan();
    await eventually(async () => ((await api.get(id)).reason === 'wait_for_password' ? true : undefined));
    return id;
  };
  const givePassword = (id: string, password: string) => api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: password, transport: 'tgapi' });
  const checksOf = (fake: TelegramAccountFake) => fake.calls.filter((c) => c._ === 'auth.checkPassword').length;
  const fakeWith = (seed: string, passwordFlood: PasswordFlood) => telegramAccountFake({ self, password: PASSWORD, seed, passwordFlood });

  it('creates a channel at once while Telegram’s network drops everything (the real client library)', async () => {
    const dc = await blackhole();
    clients = mtcuteClients({ apiId: 123456, apiHash: '0123456789abcdef0123456789abcdef', dc: { host: '127.0.0.1', port: dc.port } });
    try {
      const { answer, ms } = await timed(create());
      expect(answer.statusCode, answer.body).toBe(201);
      expect(ms).toBeLessThan(1_000);
      const id = answer.json().data[0].channel_id as string;
      expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'qr' });
      // The login goes on in the background: the client did reach for the data centre, which never answers.
      await eventually(async () => (dc.sockets.size > 0 ? true : undefined));
    } finally {
      await dc.close();
    }
  });

  it('creates a channel at once while Telegram is unreachable, and shows its QR once Telegram is back', async () => {
    const fake = telegramAccountFake({ self, seed: 'unreachable' });
    clients = fake.clients;
    fake.unreachable();
    const { answer, ms } = await timed(create());
    expect(answer.statusCode, answer.body).toBe(201);
    expect(ms).toBeLessThan(1_000);
    const id = answer.json().data[0].channel_id as string;
    expect(answer.json().data[0]).toMatchObject({ status: 'init', reason: 'qr' });
    expect((await timed(api.get(id))).ms).toBeLessThan(1_000);
    expect((await stream.since()).filter((e) => e.payload.channel_id === id).map((e) => e.name)).toEqual(['channel.create', 'channel.status_update']);

    fake.reachable();
    await qrShown(id);
    fake.scan();
    await eventually(async () => ((await api.get(id)).status === 'active' ? true : undefined));
  });

  it('lets go of the login of a channel deleted while Telegram is unreachable', async () => {
    const fake = telegramAccountFake({ self, seed: 'deleted-meanwhile' });
    clients = fake.clients;
    fake.unreachable();
    const id = (await create()).json().data[0].channel_id as string;
    await eventually(async () => (fake.openClients === 1 ? true : undefined));
    expect((await t.call('DELETE', `/v2/channels/${id}`, { token })).statusCode).toBe(200);
    fake.reachable();
    await eventually(async () => (fake.openClients === 0 ? true : undefined));
    expect((await stream.since()).filter((e) => e.name === 'channel.qr_update' && e.payload.channel_id === id)).toEqual([]);
  });

  it('shows the first QR after the wait Telegram asks for when it floods the login', async () => {
    const fake = telegramAccountFake({ self, seed: 'login-flood' });
    clients = fake.clients;
    fake.failNext('auth.exportLoginToken', 'FLOOD_WAIT_1');
    const { answer, ms } = await timed(create());
    expect(answer.statusCode, answer.body).toBe(201);
    expect(ms).toBeLessThan(1_000);
    await qrShown(answer.json().data[0].channel_id as string);
    expect(fake.calls.filter((c) => c._ === 'auth.exportLoginToken')).toHaveLength(2);
  });

  it(`refuses two-factor passwords with 429 after ${WRONG_PASSWORDS_ALLOWED} wrong ones, before they reach Telegram`, async () => {
    const fake = fakeWith('throttle', { after: 100, seconds: 3600 });
    const id = await atPasswordStep(fake);
    for (let i = 0; i < WRONG_PASSWORDS_ALLOWED; i++) {
      const wrong = await givePassword(id, `guess ${i}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toBe('TWO_FACTOR_CODE_INVALID');
    }
    expect(checksOf(fake)).toBe(WRONG_PASSWORDS_ALLOWED);
    const refused = await givePassword(id, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(PASSWORD_PAUSE_SECONDS));
    expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', data: { retry_after: PASSWORD_PAUSE_SECONDS } });
    expect(checksOf(fake)).toBe(WRONG_PASSWORDS_ALLOWED);

    clock.advance(PASSWORD_PAUSE_SECONDS * 1000 - 60_000);
    expect((await givePassword(id, PASSWORD)).json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', data: { retry_after: 60 } });
    clock.advance(60_000);
    const right = await givePassword(id, PASSWORD);
    expect(right.statusCode, right.body).toBe(200);
    expect(await api.get(id)).toMatchObject({ status: 'active' });
    expect(checksOf(fake)).toBe(WRONG_PASSWORDS_ALLOWED + 1);
  });

  it('answers Telegram’s flood wait on the password with 429 and its seconds, and forwards nothing more meanwhile', async () => {
    const fake = fakeWith('password-flood', { after: 2, seconds: 3600 });
    const id = await atPasswordStep(fake);
    expect((await givePassword(id, 'guess 1')).statusCode).toBe(400);
    expect((await givePassword(id, 'guess 2')).statusCode).toBe(400);
    // Telegram now answers FLOOD_WAIT_3600.
    const flooded = await givePassword(id, PASSWORD);
    expect(flooded.statusCode, flooded.body).toBe(429);
    expect(flooded.json().error).toBe('TOO_MANY_REQUESTS');
    // The seconds Telegram said are left of its wait (3600 from the second wrong password).
    const asked = flooded.json().data.retry_after as number;
    expect(asked).toBeGreaterThan(3500);
    expect(asked).toBeLessThanOrEqual(3600);
    expect(checksOf(fake)).toBe(3);
    const again = await givePassword(id, PASSWORD);
    expect(again.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', data: { retry_after: asked } });
    expect(checksOf(fake)).toBe(3);
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'wait_for_password' });
  });
});
