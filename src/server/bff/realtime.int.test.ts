import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../core/events/record-event.ts';
import { dispatched, frameClient, recordInbound, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const MINUTE = 60_000;
const cardChat = { chat_type: 'telegram', chat_id: '1001', username: 'bob' } as const;
const otherChat = { chat_type: 'telegram', chat_id: '1002', username: 'eve' } as const;

describe(`realtime over socket.io (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let baseUrl: string;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  const clients: FrameClient[] = [];
  const deps = () => ({ store: t.gateway.store, clock });

  const frame = async (account: { token: string }, kind: 'chats' | 'channels', body: object) => {
    const client = frameClient(baseUrl, await openFrame(t, account.token, kind, body as never));
    clients.push(client);
    await client.connect();
    return client;
  };
  const card = (account = a) => frame(account, 'chats', { user: { id: 'u1' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'Bob' }] });
  const global = (account = a) => frame(account, 'chats', { user: { id: 'u1' }, scope: 'global' });

  beforeAll(async () => {
    t = await startTestGateway({ clock, env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
  });
  afterEach(() => {
    clients.splice(0).forEach((c) => c.close());
  });
  afterAll(() => t.close());

  it('refuses a handshake without a valid session token', async () => {
    for (const token of ['', 'mgs_nope', a.token]) {
      const client = frameClient(baseUrl, token);
      clients.push(client);
      await expect(client.connect()).rejects.toThrow('UNAUTHORIZED');
    }
  });

  it('refuses an expired session, and a revoked one', async () => {
    const expired = frameClient(baseUrl, await openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' }));
    clients.push(expired);
    clock.advance(15 * MINUTE);
    await expect(expired.connect()).rejects.toThrow('UNAUTHORIZED');

    const token = await openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    await t.call('DELETE', '/bff/session', { token });
    const revoked = frameClient(baseUrl, token);
    clients.push(revoked);
    await expect(revoked.connect()).rejects.toThrow('UNAUTHORIZED');
  });

  it("pushes a card session only its chats' events, a global one all of its account, and nothing across accounts", async () => {
    const cardFrame = await card();
    const globalFrame = await global();
    const foreignFrame = await global(b);
    const events = [
      await recordInbound(deps(), a.accountId, otherChat, 'not for the card'),
      await recordInbound(deps(), a.accountId, { chat_type: 'whatsapp', chat_id: '1001' }, 'same id, other chat type'),
      await recordInbound(deps(), a.accountId, cardChat, 'for the card'),
    ];
    await globalFrame.until(() => globalFrame.events.length === 3, 'three events on the global frame');
    await cardFrame.until(() => cardFrame.events.length >= 1, 'the card event');
    await dispatched(t.gateway, events);
    // Everything was dispatched and the global frame got it all, so the card frame has had its chance too.
    await globalFrame.until(() => globalFrame.events.every((e) => e.position > 0), 'positions');
    expect(cardFrame.events.map((e) => e.id)).toEqual([events[2]!.id]);
    // Live pushes run in parallel (events of different chats are dispatched concurrently); the position orders them.
    expect([...globalFrame.events].sort((x, y) => x.position - y.position).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(foreignFrame.events).toEqual([]);
    expect(globalFrame.events.find((e) => e.id === events[2]!.id)).toMatchObject({ name: 'message.add', payload: { text: 'for the card' } });
  });

  it('keeps QR codes to connect frames, and channel statuses to every frame of the account', async () => {
    const connect = await frame(a, 'channels', {});
    const chats = await card();
    const channelId = '00000000-0000-4000-8000-0000000000c1';
    const events = await t.gateway.store.transaction(async (tx) => [
      await recordEvent(tx, clock, { accountId: a.accountId, name: 'channel.qr_update', orderingKey: `channel:${channelId}`, payload: { channel_id: channelId, qr_code: 'data:image/png;base64,AA', platform: 'whatsapp' } }),
      await recordEvent(tx, clock, { accountId: a.accountId, name: 'channel.status_update', orderingKey: `channel:${channelId}`, payload: { channel_id: channelId, status: 'active', reason: null } }),
      await recordEvent(tx, clock, { accountId: a.accountId, name: 'message.add', orderingKey: null, payload: { text: 'a chat nobody can tell' } }),
    ]);
    await dispatched(t.gateway, events);
    await connect.until(() => connect.events.length === 2, 'two channel events');
    await chats.until(() => chats.events.length === 1, 'the status');
    // Live pushes run in parallel, so they may arrive out of order; the position restores it.
    expect(connect.events.sort((x, y) => x.position - y.position).map((e) => e.name)).toEqual(['channel.qr_update', 'channel.status_update']);
    expect(chats.events.map((e) => e.name)).toEqual(['channel.status_update']);
  });

  it('ends the connections of a revoked session at once', async () => {
    const client = await global();
    await t.call('DELETE', '/v2/embedding/sessions?user_id=u1', { token: a.token });
    await client.until(() => !client.socket.connected, 'the disconnect');
    expect(client.ended).toEqual([{ reason: 'revoked' }]);
  });

  it('ends connections whose session expired unless it was renewed', async () => {
    const kept = await global();
    const lapsed = await global();
    clock.advance(10 * MINUTE);
    // Renew one of them the way the widget does.
    const renew = await t.call('POST', '/bff/session/renew', { token: tokenOf(kept) });
    expect(renew.statusCode).toBe(200);
    clock.advance(6 * MINUTE);
    await t.gateway.realtime.sweep();
    await lapsed.until(() => !lapsed.socket.connected, 'the lapsed disconnect');
    expect(lapsed.ended).toEqual([{ reason: 'expired' }]);
    expect(kept.socket.connected).toBe(true);
  });

  it('answers catch_up with what came after the given position', async () => {
    const client = await global();
    const start = client.position!;
    const events = [await recordInbound(deps(), a.accountId, cardChat, 'one'), await recordInbound(deps(), a.accountId, cardChat, 'two')];
    await client.until(() => client.events.length === 2, 'two live events');
    const replayed = new Promise<number[]>((resolve) => client.socket.once('caught_up', (batch) => resolve(batch.events.map((e) => e.position))));
    client.socket.emit('catch_up', start);
    const positions = await replayed;
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    // Both new events, and from before `start` only the overlap window that covers late commits.
    const stored = await Promise.all(events.map((e) => t.gateway.store.events.get(e.id)));
    expect(positions.filter((p) => p > start)).toEqual(stored.map((e) => e!.position));
    const anchor = await t.gateway.store.eventLog.at(a.accountId, start);
    const cutoff = anchor!.createdAt.getTime() - 30_000;
    for (const p of positions.filter((p) => p <= start)) {
      const event = await t.gateway.store.eventLog.at(a.accountId, p);
      expect(event!.createdAt.getTime()).toBeGreaterThanOrEqual(cutoff);
    }
  });
});

/** The session token a client was created with (kept in its handshake). */
function tokenOf(client: FrameClient): string {
  let token = '';
  (client.socket.auth as (cb: (auth: { token: string }) => void) => void)((auth) => (token = auth.token));
  return token;
}
