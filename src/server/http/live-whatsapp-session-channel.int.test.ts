import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { recordedTexts } from '../testing/session-takeover.ts';
import { telegramAccountFake } from '../testing/telegram-account-fake.ts';
import { databaseKind } from '../testing/test-database.ts';
import { customerText, FakeWaLibrary, type FakeWaSocket } from '../testing/whatsapp-personal-fake.ts';

const ENV = { SECRET_KEY: 'q'.repeat(40), WHATSAPP_PERSONAL: 'on' };
const self = { id: 730100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };

/** A live gateway running personal WhatsApp accounts over the library's fake, on a clock the test moves. */
async function whatsappGateway(withTelegram: boolean) {
  const clock = new ManualClock(Date.now());
  const library = new FakeWaLibrary();
  const telegram = telegramAccountFake({ self, seed: 'qr' });
  const { t } = await startLiveGateway(ENV, { clock, whatsapp: { library }, ...(withTelegram ? { tgapiClients: telegram.clients } : {}) });
  const { token } = await t.newAccount();
  const create = async (): Promise<{ id: string; socket: FakeWaSocket }> => {
    const before = library.sockets.length;
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data[0].channel_id, socket: await eventually(async () => library.sockets[before] ?? undefined) };
  };
  const stored = (id: string) => t.gateway.store.channels.getById(id);
  const showQr = async (id: string, socket: FakeWaSocket, payload: string) => {
    socket.emit('connection.update', { qr: payload });
    await eventually(async () => ((await stored(id))?.qr?.payload === payload ? true : undefined));
  };
  return { t, token, clock, library, telegram, create, stored, showQr };
}

describe(`a personal WhatsApp channel's QR comes from its session only (${databaseKind()})`, () => {
  let gateways: Awaited<ReturnType<typeof whatsappGateway>>[] = [];
  beforeAll(async () => {
    gateways = [await whatsappGateway(true), await whatsappGateway(false)];
  }, 240_000);
  afterAll(async () => {
    for (const g of gateways) await g.t.close();
  });

  it('keeps WhatsApp’s code past 20 s on a gateway with Telegram configured: never a Telegram login token in its place', async () => {
    const g = gateways[0]!;
    const { id, socket } = await g.create();
    await g.showQr(id, socket, '2@whatsapp-ref,noise,identity,adv');
    g.clock.advance(25_000);
    for (const url of [`/v2/channels/${id}`, '/v2/channels']) {
      const res = await g.t.call('GET', url, { token: g.token });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await g.stored(id))?.qr).toMatchObject({ payload: '2@whatsapp-ref,noise,identity,adv', shown: 1 });
    expect(g.telegram.calls.filter((c) => c._ === 'auth.exportLoginToken')).toEqual([]);
    // The session's next code is shown as WhatsApp issues it.
    await g.showQr(id, socket, '2@whatsapp-ref-2,noise,identity,adv');
    expect((await g.stored(id))?.qr).toMatchObject({ shown: 2 });
  });

  it('answers every read and call on a code older than 20 s without Telegram, never 409', async () => {
    const g = gateways[1]!;
    const { id, socket } = await g.create();
    await g.showQr(id, socket, '2@old-ref,noise,identity,adv');
    g.clock.advance(45_000);
    expect((await g.t.call('GET', `/v2/channels/${id}`, { token: g.token })).statusCode).toBe(200);
    expect((await g.t.call('GET', '/v2/channels', { token: g.token })).statusCode).toBe(200);
    const pairing = await g.t.call('POST', `/v2/channels/${id}/pairing-code`, { token: g.token, body: { pairing_phone: '79005554433', transport: 'whatsapp' } });
    expect(pairing.statusCode, pairing.body).toBe(200);
    expect(socket.pairingCodes).toEqual(['79005554433']);
    g.clock.advance(45_000);
    const before = g.library.sockets.length;
    const reinit = await g.t.call('POST', `/v2/channels/${id}/reinit`, { token: g.token, body: { credentials: {} } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    const again = await eventually(async () => g.library.sockets[before] ?? undefined);
    await g.showQr(id, again, '2@after-reinit,noise,identity,adv');
    g.clock.advance(45_000);
    const deleted = await g.t.call('DELETE', `/v2/channels/${id}`, { token: g.token });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('refuses a second channel of the account linked by a number another of its channels holds: disabled/openelsewhere, each message recorded once', async () => {
    const g = gateways[1]!;
    const first = await g.create();
    await g.showQr(first.id, first.socket, '2@first,noise,identity,adv');
    first.socket.link('79005556677', 'Acme Shop');
    first.socket.emit('connection.update', { receivedPendingNotifications: true });
    await eventually(async () => ((await g.stored(first.id))?.state.status === 'active' ? true : undefined));

    const second = await g.create();
    await g.showQr(second.id, second.socket, '2@second,noise,identity,adv');
    second.socket.link('79005556677', 'Acme Shop');
    await eventually(async () => ((await g.stored(second.id))?.state.status === 'disabled' ? true : undefined));
    expect((await g.t.call('GET', `/v2/channels/${second.id}`, { token: g.token })).json().data[0]).toMatchObject({ status: 'disabled', reason: 'openelsewhere' });
    // The second link is let go on WhatsApp too: no dead device stays on the phone.
    expect(second.socket.loggedOut).toBe(true);
    expect((await g.stored(first.id))?.state).toEqual({ status: 'active', reason: null });

    // WhatsApp delivers a customer's message to every device linked to the phone.
    const hello = customerText('15557654321', '3EB0AA11BB22CC33DD44', 'one phone, one channel');
    first.socket.emit('messages.upsert', { messages: [hello], type: 'notify' });
    second.socket.emit('messages.upsert', { messages: [hello], type: 'notify' });
    await eventually(async () => ((await recordedTexts(g.t.gateway.database.db, 'inbound', ['one phone, one channel']))['one phone, one channel'] === 1 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await recordedTexts(g.t.gateway.database.db, 'inbound', ['one phone, one channel'])).toEqual({ 'one phone, one channel': 1 });
  });
});
