import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { closedWith, customerText, FakeWaLibrary, refusedWith, type FakeWaSocket } from '../testing/whatsapp-personal-fake.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';
import { REFUSALS_BEFORE_DISABLE } from '../transports/whatsapp/endings.ts';
import { reconnectDelayMs } from '../transports/whatsapp/liveness.ts';

/** A seeded draw for the reconnects' jitter (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const backoff = { baseMs: 40, maxMs: 400 };

describe(`live personal WhatsApp accounts through the library's adapter (${databaseKind()})`, () => {
  const library = new FakeWaLibrary();
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;

  beforeAll(async () => {
    ({ t } = await startLiveGateway({ SECRET_KEY: 'k'.repeat(40), WHATSAPP_PERSONAL: 'on' }, { whatsapp: { library, backoff, random: seeded(7) } }));
    ({ token, accountId } = await t.newAccount());
  });
  afterAll(async () => {
    await t?.close();
  });

  const channel = async (id = channelId) => (await t.call('GET', `/v2/channels/${id}`, { token })).json().data[0] as Record<string, unknown>;
  const socketCount = () => library.sockets.length;
  const newSocket = (after: number) => eventually(async () => (library.sockets.length > after ? library.last() : undefined));
  const create = async (): Promise<{ id: string; socket: FakeWaSocket }> => {
    const before = socketCount();
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data[0].channel_id, socket: await newSocket(before) };
  };
  const qrEvents = (events: { name: string; payload: Record<string, unknown> }[]) => events.filter((e) => e.name === 'channel.qr_update');

  it('shows each QR WhatsApp issues as channel.qr_update, once each, and goes idle after the sixth unscanned', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    const { id, socket } = await create();
    expect(await channel(id)).toMatchObject({ status: 'init', reason: 'qr' });
    await stream.since();
    socket.emit('connection.update', { qr: '2@first-ref,noise,identity,adv' });
    const [first] = await eventually(async () => {
      const shown = qrEvents(await stream.since());
      return shown.length > 0 ? shown : undefined;
    });
    expect(first!.payload).toEqual({ channel_id: id, qr_code: expect.stringMatching(/^data:image\/png;base64,/), platform: 'whatsapp' });
    // The same code again is not shown again: a QR is never issued faster than WhatsApp issues them.
    socket.emit('connection.update', { qr: '2@first-ref,noise,identity,adv' });
    for (let n = 2; n <= 6; n++) socket.emit('connection.update', { qr: `2@ref-${n},noise,identity,adv` });
    await eventually(async () => ((await t.gateway.store.channels.getById(id))?.qr?.shown === 6 ? true : undefined));
    expect(qrEvents(await stream.since())).toHaveLength(5);
    socket.emit('connection.update', { qr: '2@ref-7,noise,identity,adv' });
    await eventually(async () => ((await channel(id)).reason === 'qridle' ? true : undefined));
    expect(socket.ended).toBe(true);
    await eventually(async () => ((await t.gateway.database.db.selectFrom('sessions').selectAll().where('channel_id', '=', id).executeTakeFirst()) ? undefined : true));
    const expired = await t.call('POST', `/v2/channels/${id}/pairing-code`, { token, body: { pairing_phone: '79005554433', transport: 'whatsapp' } });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().error).toBe('CHANNEL_QR_EXPIRED');
  });

  it('asks WhatsApp for its pairing code while a QR is live, then syncs and goes active with the account’s profile', async () => {
    const created = await create();
    channelId = created.id;
    const socket = created.socket;
    socket.emit('connection.update', { qr: '2@pairing-ref,noise,identity,adv' });
    await eventually(async () => ((await t.gateway.store.channels.getById(channelId))?.qr ? true : undefined));
    const res = await t.call('POST', `/v2/channels/${channelId}/pairing-code`, { token, body: { pairing_phone: '79005554433', transport: 'whatsapp' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0]).toMatchObject({ pairing_code: 'K7QW3PZX' });
    expect(socket.pairingCodes).toEqual(['79005554433']);

    socket.link('79005554433', 'Acme Shop');
    await eventually(async () => ((await channel()).reason === 'sync' ? true : undefined));
    socket.emit('connection.update', { receivedPendingNotifications: true });
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
    expect(await channel()).toMatchObject({ status: 'active', phone: '79005554433', name: 'Acme Shop', messenger_id: '79005554433' });
  });

  it('records a customer’s message once however often WhatsApp delivers it, and their edit and delete', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const socket = library.last();
    const hello = customerText('15551234567', 'wamid.FAKE00000001', 'hello from phone');
    socket.emit('messages.upsert', { messages: [hello], type: 'notify' });
    // The same message again (the history sent on a reconnect).
    socket.emit('messages.upsert', { messages: [hello], type: 'append' });
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [{ key: { remoteJid: '15551234567@s.whatsapp.net', fromMe: false, id: 'wamid.EDIT1' }, message: { protocolMessage: { type: 14, key: { remoteJid: '15551234567@s.whatsapp.net', id: 'wamid.FAKE00000001' }, editedMessage: { conversation: 'hello from my phone' } } } }],
    } as never);
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [{ key: { remoteJid: '15551234567@s.whatsapp.net', fromMe: false, id: 'wamid.DEL1' }, message: { protocolMessage: { type: 0, key: { remoteJid: '15551234567@s.whatsapp.net', id: 'wamid.FAKE00000001' } } } }],
    } as never);
    const names: string[] = [];
    await eventually(async () => {
      names.push(...(await stream.names()));
      return names.includes('message.delete') ? true : undefined;
    });
    expect(names.filter((n) => n === 'message.add')).toHaveLength(1);
    expect(names).toContain('message.edit');
    const rows = await t.gateway.database.db.selectFrom('messages').select(['text', 'direction', 'deleted_at']).where('messenger_message_id', '=', 'wamid.FAKE00000001').execute();
    expect(rows).toEqual([{ text: 'hello from my phone', direction: 'inbound', deleted_at: expect.any(Date) }]);
  });

  it('sends under an id drawn from the request, so a repeated send is the same message, and records WhatsApp’s receipts', async () => {
    const socket = library.last();
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '15551234567' }, text: 'Your order has shipped' } });
    expect(res.statusCode, res.body).toBe(201);
    const requestId = res.json().data.request_id as string;
    await settled(t, requestId, ['sent']);
    expect(socket.sent.at(-1)).toMatchObject({ jid: '15551234567@s.whatsapp.net', content: { text: 'Your order has shipped' }, options: { messageId: whatsappMessageId(requestId) } });
    // The library's own copy of the send comes back as an upsert: the message stays one.
    socket.emit('messages.upsert', { type: 'append', messages: [{ key: { remoteJid: '15551234567@s.whatsapp.net', fromMe: true, id: whatsappMessageId(requestId) }, message: { extendedTextMessage: { text: 'Your order has shipped' } } }] } as never);
    socket.emit('messages.update', [{ key: { remoteJid: '15551234567@s.whatsapp.net', fromMe: true, id: whatsappMessageId(requestId) }, update: { status: 3 } }]);
    socket.emit('messages.update', [{ key: { remoteJid: '15551234567@s.whatsapp.net', fromMe: true, id: whatsappMessageId(requestId) }, update: { status: 4 } }]);
    await settled(t, requestId, ['read']);
    expect(await statusTrail(t, requestId)).toEqual(['sent', 'delivered', 'read']);
    const copies = await t.gateway.database.db.selectFrom('messages').select('id').where('messenger_message_id', '=', whatsappMessageId(requestId)).execute();
    expect(copies).toHaveLength(1);

    const unknown = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '79990000000' }, text: 'Hi' } });
    expect(unknown.statusCode, unknown.body).toBe(201);
    expect(await settled(t, unknown.json().data.request_id, ['failed'])).toMatchObject({ reason: 'bad_contact' });
  });

  it('writes to the number WhatsApp knows a mobile by, and moves the chat there (Brazil’s ninth digit)', async () => {
    const socket = library.last();
    socket.registered.set('5511987654321', '551187654321@s.whatsapp.net');
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '5511987654321' }, text: 'Olá' } });
    expect(res.statusCode, res.body).toBe(201);
    await settled(t, res.json().data.request_id, ['sent']);
    expect(socket.sent.at(-1)).toMatchObject({ jid: '551187654321@s.whatsapp.net', content: { text: 'Olá' } });
    const chats = await t.gateway.database.db.selectFrom('chats').select('chat_id').where('channel_id', '=', channelId).where('chat_id', 'like', '5511%').execute();
    expect(chats).toEqual([{ chat_id: '551187654321' }]);
  });

  it('fails what WhatsApp refuses with the interface’s reasons: a group not joined, a restricted account', async () => {
    const socket = library.last();
    const send = async (chat: { chat_type: string; chat_id: string }) => {
      const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: chat, text: 'Hello' } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.request_id as string;
    };
    socket.sendFails = refusedWith(403, 'forbidden');
    expect(await settled(t, await send({ chat_type: 'whatsgroup', chat_id: '120363025246125486' }), ['failed'])).toMatchObject({ reason: 'no_user_permissions' });
    socket.sendFails = null;
    // Taken, then refused in its acknowledgement (463: WhatsApp does not let the account start chats now).
    const requestId = await send({ chat_type: 'whatsapp', chat_id: '15551234567' });
    await settled(t, requestId, ['sent']);
    socket.emit('messages.update', [{ key: { remoteJid: '15551234567@s.whatsapp.net', fromMe: true, id: whatsappMessageId(requestId) }, update: { status: 0, messageStubParameters: ['463'] } }]);
    expect(await settled(t, requestId, ['failed'])).toMatchObject({ reason: 'is_spam' });
  });

  it('reconnects a lost connection with growing waits and no change of status, and never twice at once', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const before = socketCount();
    let socket = library.last();
    const gaps: number[] = [];
    for (let n = 0; n < 3; n++) {
      const lostAt = performance.now();
      socket.emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(428), date: new Date() } });
      socket = await newSocket(before + n);
      gaps.push(library.openedAt.at(-1)! - lostAt);
    }
    // Each wait is at least the lower half of its doubling ceiling (40, 80, 160 ms): a backoff, not a loop.
    gaps.forEach((gap, attempt) => expect(gap).toBeGreaterThanOrEqual(reconnectDelayMs(backoff, attempt, () => 0) - 5));
    socket.link('79005554433', 'Acme Shop');
    await eventually(async () => (library.last().user() ? true : undefined));
    expect(socketCount()).toBe(before + 3);
    expect((await stream.names()).filter((n) => n === 'channel.status_update')).toEqual([]);
    expect((await channel()).status).toBe('active');
  });

  it('waits its turn when WhatsApp asks for a restart again before the connection opened (never a loop)', async () => {
    const before = socketCount();
    library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(515), date: new Date() } });
    const restarted = await newSocket(before);
    const again = performance.now();
    restarted.emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(515), date: new Date() } });
    const third = await newSocket(before + 1);
    expect(library.openedAt[before + 1]! - again).toBeGreaterThanOrEqual(reconnectDelayMs(backoff, 1, () => 0) - 5);
    third.link('79005554433', 'Acme Shop');
    await eventually(async () => (third.user() ? true : undefined));
  });

  it('goes disabled/openelsewhere only when the session is replaced time after time, and disabled/unauthorized when logged out on the phone', async () => {
    // Replaced once (what this gateway's own takeover looks like to the former connection): reconnected.
    let before = socketCount();
    library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(440), date: new Date() } });
    for (let n = 1; n < REFUSALS_BEFORE_DISABLE; n++) {
      const next = await newSocket(before);
      expect((await channel()).status).toBe('active');
      before = socketCount();
      next.emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(440), date: new Date() } });
    }
    await eventually(async () => ((await channel()).reason === 'openelsewhere' ? true : undefined));
    before = socketCount();
    expect((await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: {} } })).statusCode).toBe(200);
    const socket = await newSocket(before);
    socket.emit('connection.update', { qr: '2@again,noise,identity,adv' });
    socket.link('79005554433', 'Acme Shop');
    socket.emit('connection.update', { receivedPendingNotifications: true });
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
    socket.emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(401), date: new Date() } });
    await eventually(async () => ((await channel()).reason === 'unauthorized' ? true : undefined));
    expect(await t.gateway.database.db.selectFrom('session_state').select('key').where('channel_id', '=', channelId).execute()).toEqual([]);
  });

  it('turns down another number scanning on a reinit (disabled/foreignphone)', async () => {
    const before = socketCount();
    expect((await t.call('POST', `/v2/channels/${channelId}/reinit`, { token, body: { credentials: {} } })).statusCode).toBe(200);
    const socket = await newSocket(before);
    socket.emit('connection.update', { qr: '2@foreign,noise,identity,adv' });
    await eventually(async () => ((await t.gateway.store.channels.getById(channelId))?.qr ? true : undefined));
    socket.link('79110000000', 'Somebody else');
    await eventually(async () => ((await channel()).reason === 'foreignphone' ? true : undefined));
    expect(socket.loggedOut).toBe(true);
  });
});
