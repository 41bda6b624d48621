import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { ManualTimers } from '../testing/manual-timers.ts';
import { messageByRequest, settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { closedWith, customerMessage, FakeWaLibrary, type FakeWaSocket } from '../testing/whatsapp-personal-fake.ts';
import { ACK_WAIT_MS } from '../transports/whatsapp/acks.ts';
import { whatsappMessageId } from '../transports/whatsapp/messaging.ts';
import { defaultBackoff, defaultLiveness } from '../transports/whatsapp/liveness.ts';

const METRICS_TOKEN = 'metrics-token-of-the-whatsapp-liveness-test';

/**
 * The session's own clock (its reconnect waits, its watchdog, a send's wait for WhatsApp's acknowledgement) is moved
 * by the test: each bound is reached exactly, at its production value. The send queue's retries run on real time.
 */
describe(`personal WhatsApp sessions that keep every send and never show a dead session active (${databaseKind()})`, () => {
  const library = new FakeWaLibrary();
  const timers = new ManualTimers();
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;

  const channel = async () => (await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0] as { status: string; reason: string | null };
  const newSocket = (after: number) => eventually(async () => (library.sockets.length > after ? library.last() : undefined));
  /** The backoff's longest first wait: the reconnect after a first loss is due by then. */
  const firstWait = defaultBackoff.baseMs;
  const send = async (chatId: string, text: string) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: chatId }, text } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.request_id as string;
  };
  const stateKeys = async () => (await t.gateway.database.db.selectFrom('session_state').select('key').where('channel_id', '=', channelId).execute()).map((r) => r.key);
  /** Moves the session's clock on by `ms` once the session set a timer due by then (it reacts to a report first). */
  const advanceOnceSet = async (ms: number) => {
    await eventually(async () => (timers.pending().some((due) => due <= ms) ? true : undefined));
    timers.advance(ms);
  };
  const metrics = async () => (await t.call('GET', '/metrics', { token: METRICS_TOKEN })).body;

  beforeAll(async () => {
    ({ t } = await startLiveGateway({ SECRET_KEY: 'k'.repeat(40), WHATSAPP_PERSONAL: 'on', METRICS_TOKEN }, { whatsapp: { library, timers, random: () => 1 } }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    channelId = res.json().data[0].channel_id;
    const socket = await newSocket(0);
    socket.emit('connection.update', { qr: '2@liveness-ref,noise,identity,adv' });
    await eventually(async () => ((await t.gateway.store.channels.getById(channelId))?.qr ? true : undefined));
    socket.link('79005554433', 'Acme Shop');
    await eventually(async () => ((await channel()).reason === 'sync' ? true : undefined));
    socket.emit('connection.update', { receivedPendingNotifications: true });
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
    // The session's keys, as the library saved them on linking.
    await socket.state.set({ creds: { noiseKey: 'kept' }, 'session:15551234567.0': { ratchet: 'kept' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records a send `sent` only on WhatsApp’s acknowledgement, and writes what went unacknowledged again under the same id after the connection died', async () => {
    const first = library.last();
    first.acks = 'held';
    // Three sends (three chats, so all three are written at once) over a connection that silently died.
    const chats = ['15551230001', '15551230002', '15551230003'];
    for (const chat of chats) first.registered.set(chat, `${chat}@s.whatsapp.net`);
    const requests = await Promise.all(chats.map((chat) => send(chat, `Order update for ${chat}`)));
    await eventually(async () => (first.unacked.length === 3 ? true : undefined));
    expect(first.unacked.sort()).toEqual(requests.map(whatsappMessageId).sort());
    // Written, not acknowledged: nothing is recorded sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const requestId of requests) expect((await messageByRequest(t, requestId))?.status).toBe('accepted');
    expect(await metrics()).toMatch(/^gateway_whatsapp_unacked_sends 3$/m);

    // The acknowledgements never come: each send gives up its wait, and the watchdog gives up the silent connection.
    const before = library.sockets.length;
    timers.advance(ACK_WAIT_MS);
    timers.advance(defaultLiveness.silenceMs - ACK_WAIT_MS);
    expect(first.ended).toBe(true);
    for (const requestId of requests) expect((await messageByRequest(t, requestId))?.status).toBe('accepted');
    await advanceOnceSet(firstWait);
    const second = await newSocket(before);
    second.link('79005554433', 'Acme Shop');
    // Written again on the new connection under the same ids, acknowledged there, recorded sent once each.
    for (const requestId of requests) {
      await settled(t, requestId, ['sent']);
      expect(await statusTrail(t, requestId)).toEqual(['sent']);
      const stored = await t.gateway.database.db.selectFrom('messages').select('messenger_message_id').where('request_id', '=', requestId).executeTakeFirst();
      expect(stored?.messenger_message_id).toBe(whatsappMessageId(requestId));
    }
    const ids = (socket: FakeWaSocket) => socket.sent.map((s) => s.options?.messageId).sort();
    expect(ids(second)).toEqual(ids(first));
    expect(await metrics()).toMatch(/^gateway_whatsapp_unacked_sends 0$/m);
    expect(await metrics()).toMatch(/^gateway_whatsapp_reconnects_total [1-9]\d*$/m);
  });

  it('reconnects on a failure without a reason, a stream error of an unknown kind, a restart and WhatsApp’s 5xx, keeping the keys', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    // 500 is what the library reports for a failure without a reason ("bad session"); no code, an unknown stream error.
    for (const code of [500, undefined, 515, 503, 500]) {
      const before = library.sockets.length;
      library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: code === undefined ? new Error('Stream Errored (unknown)') : closedWith(code), date: new Date() } });
      // Well inside the threshold: the channel never shows it.
      await advanceOnceSet(firstWait);
      const next = await newSocket(before);
      next.link('79005554433', 'Acme Shop');
      await eventually(async () => (library.last().user() && (await metrics()).match(/^gateway_whatsapp_sessions\{state="open"\} 1$/m) ? true : undefined));
    }
    expect((await stateKeys()).sort()).toEqual(['creds', 'session:15551234567.0']);
    expect((await stream.names()).filter((n) => n === 'channel.status_update')).toEqual([]);
  });

  it('gives up a connection that never opens (a WebSocket upgrade answered 503), shows the session unreachable past its threshold, and active again once it opens', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    let before = library.sockets.length;
    library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(428), date: new Date() } });
    // A send right after the drop, while the channel still shows active, waits for the session rather than failing.
    const waiting = await send('15551234567', 'Sent while the session was down');
    await advanceOnceSet(firstWait);
    const stuck = await newSocket(before);
    // The attempt hears nothing and reports nothing, as the library over an upgrade answered 503.
    before = library.sockets.length;
    timers.advance(defaultLiveness.unreachableMs - firstWait);
    await eventually(async () => ((await channel()).status === 'init' ? true : undefined));
    expect(await channel()).toMatchObject({ status: 'init', reason: null });
    expect(await metrics()).toMatch(/^gateway_whatsapp_sessions\{state="unreachable"\} 1$/m);
    expect((await messageByRequest(t, waiting))?.status).toBe('accepted');
    // What the session hears while its channel shows it reconnecting (the library already acknowledged it to WhatsApp,
    // which will not deliver it again) is recorded at once, not held in memory until the channel is active.
    stuck.emit('messages.upsert', { type: 'notify', messages: [customerMessage('15551234567', 'wamid.WHILE-DOWN', { conversation: 'are you there?' })] });
    const heard = await eventually(() => t.gateway.database.db.selectFrom('messages').select('text').where('messenger_message_id', '=', 'wamid.WHILE-DOWN').executeTakeFirst());
    expect(heard.text).toBe('are you there?');
    expect(await channel()).toMatchObject({ status: 'init', reason: null });
    // The open bound runs from the attempt (one backoff wait after the drop).
    timers.advance(defaultLiveness.openMs - 1 - (defaultLiveness.unreachableMs - firstWait));
    expect(stuck.ended).toBe(false);
    timers.advance(1);
    expect(stuck.ended).toBe(true);
    await advanceOnceSet(defaultBackoff.maxMs);
    const next = await newSocket(before);
    next.registered.set('15551234567', '15551234567@s.whatsapp.net');
    next.link('79005554433', 'Acme Shop');
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
    expect(await settled(t, waiting, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const changes = (await stream.since()).filter((e) => e.name === 'channel.status_update').map((e) => [e.payload.status, e.payload.reason]);
    expect(changes).toEqual([
      ['init', null],
      ['active', null],
    ]);
    expect(await metrics()).toMatch(/^gateway_whatsapp_sessions\{state="open"\} 1$/m);
  });

  it('gives up an open connection that heard nothing for its bound, and keeps one that answers its keepalives', async () => {
    const socket = library.last();
    const before = library.sockets.length;
    for (let n = 0; n < 5; n++) {
      timers.advance(defaultLiveness.silenceMs - 1);
      socket.hear();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(socket.ended).toBe(false);
    expect((await channel()).status).toBe('active');
    timers.advance(defaultLiveness.silenceMs);
    expect(socket.ended).toBe(true);
    // It was dead for the watchdog's whole bound already: the channel leaves `active` now, without another threshold
    // (a dead session shows `active` for the watchdog's bound at most).
    await eventually(async () => ((await channel()).status === 'init' ? true : undefined));
    expect(timers.pending().every((due) => due > 0)).toBe(true);
    await advanceOnceSet(firstWait);
    (await newSocket(before)).link('79005554433', 'Acme Shop');
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
    await eventually(async () => ((await metrics()).match(/^gateway_whatsapp_sessions\{state="open"\} 1$/m) ? true : undefined));
  });

  it('shows a session whose library closed it after a silence unreachable at once, and one reset while it was heard from only past the threshold', async () => {
    // The library's own keepalive found the connection silent first (before the watchdog's bound).
    let before = library.sockets.length;
    timers.advance(defaultLiveness.unreachableMs + 1);
    library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(428), date: new Date() } });
    await eventually(async () => ((await channel()).status === 'init' ? true : undefined));
    await advanceOnceSet(firstWait);
    (await newSocket(before)).link('79005554433', 'Acme Shop');
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
    // A reset of a connection heard from a moment ago: reconnected within the threshold, never shown.
    before = library.sockets.length;
    library.last().hear();
    library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(428), date: new Date() } });
    await advanceOnceSet(firstWait);
    await newSocket(before);
    timers.advance(defaultLiveness.unreachableMs - firstWait - 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await channel()).status).toBe('active');
    timers.advance(1);
    await eventually(async () => ((await channel()).status === 'init' ? true : undefined));
    library.last().link('79005554433', 'Acme Shop');
    await eventually(async () => ((await channel()).status === 'active' ? true : undefined));
  });

  it('wipes the keys when the account logged the device out on the phone (401)', async () => {
    library.last().emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(401), date: new Date() } });
    await eventually(async () => ((await channel()).reason === 'unauthorized' ? true : undefined));
    expect(await stateKeys()).toEqual([]);
  });
});
