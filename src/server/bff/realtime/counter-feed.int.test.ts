import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { channelClient } from '../../testing/channel-client.ts';
import { eventually } from '../../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { activeChannel } from '../../testing/messaging.ts';
import { databaseKind } from '../../testing/test-database.ts';

/** What a v3 client hears on the counter feed, in order. */
interface Heard {
  updates: Record<string, unknown>[];
  errors: Record<string, unknown>[];
  disconnected: boolean;
}

/**
 * A client as the original service's documentation writes one (§12.2): socket.io at `/ws-counters/`, then
 * `counterConnecting` {type: 'api_v3', apiKey, userId}, then `counterUpdate`. The path and event names are the
 * documented ones, not imported from the gateway's code.
 */
function counterClient(baseUrl: string, apiKey: string, userId: string): { socket: Socket; heard: Heard } {
  const heard: Heard = { updates: [], errors: [], disconnected: false };
  const socket = io(baseUrl, { path: '/ws-counters/', transports: ['websocket', 'polling'], reconnection: false });
  socket.on('connect', () => socket.emit('counterConnecting', { type: 'api_v3', apiKey, userId }));
  socket.on('counterUpdate', (update: Record<string, unknown>) => heard.updates.push(update));
  socket.on('counterError', (error: Record<string, unknown>) => heard.errors.push(error));
  socket.on('disconnect', () => (heard.disconnected = true));
  return { socket, heard };
}

const updateNumber = (heard: Heard, n: number) => eventually(async () => heard.updates[n - 1]);

describe(`the v3 unanswered counter's socket.io feed (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;
  let account: { accountId: string; token: string };
  let whatsapp: string;
  const sockets: Socket[] = [];
  const client = (apiKey: string, userId: string) => {
    const opened = counterClient(baseUrl, apiKey, userId);
    sockets.push(opened.socket);
    return opened;
  };
  const inbound = (token: string, channel: string, chatId: string) =>
    t.call('POST', `/v2/sandbox/channels/${channel}/inbound`, { token, body: { chat_type: 'whatsapp', chat_id: chatId, text: 'hello?' } });

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    account = await t.newAccount('A');
    whatsapp = await activeChannel(t, channelClient(t, account.token), 'whatsapp');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t.close();
  });

  it('sends the counter at once, then each time it changes: a customer writes, the CRM answers', async () => {
    const { heard } = client(account.token, 'u1');
    expect(await updateNumber(heard, 1)).toEqual({ counter: 0, counterV2: 0, type: null, lastMsgDateTime: null });

    expect((await inbound(account.token, whatsapp, '79001110001')).statusCode).toBeLessThan(300);
    const waiting = await updateNumber(heard, 2);
    expect(waiting).toMatchObject({ counter: 1, counterV2: 1, type: 'red' });
    const rest = await t.call('GET', '/v3/unanswered/u1', { token: account.token });
    expect(waiting.lastMsgDateTime).toBe(rest.json().lastMsgDateTime);

    const sent = await t.call('POST', '/v3/message', { token: account.token, body: { channelId: whatsapp, chatType: 'whatsapp', chatId: '79001110001', text: 'Here' } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await updateNumber(heard, 3)).toEqual({ counter: 0, counterV2: 0, type: null, lastMsgDateTime: null });
    expect(heard.errors).toEqual([]);
  });

  it("does not hear another account's chats", async () => {
    const other = await t.newAccount('B');
    const otherChannel = await activeChannel(t, channelClient(t, other.token), 'whatsapp');
    const mine = client(account.token, 'u2');
    const theirs = client(other.token, 'u2');
    await updateNumber(mine.heard, 1);
    await updateNumber(theirs.heard, 1);
    await inbound(other.token, otherChannel, '79001110002');
    expect(await updateNumber(theirs.heard, 2)).toMatchObject({ counter: 1 });
    // Then one of A's own, which A's client hears as its second update: B's never came in between.
    await inbound(account.token, whatsapp, '79001110003');
    expect(await updateNumber(mine.heard, 2)).toMatchObject({ counter: 1 });
    expect(mine.heard.updates).toHaveLength(2);
  });

  it.each([
    ['a wrong key', () => `${account.token.slice(0, -4)}AAAA`],
    ['a sidecar key', async () => (await t.issueToken(account.accountId, 'sidecar')).token],
    ['the partner key', () => t.partnerKey],
  ])('refuses %s with counterError UNAUTHORIZED and disconnects', async (_label, key) => {
    const { heard } = client(await key(), 'u1');
    await eventually(async () => (heard.disconnected ? true : undefined));
    expect(heard.errors).toEqual([{ error: 'UNAUTHORIZED', description: expect.any(String) }]);
    expect(heard.updates).toEqual([]);
  });

  it('refuses a counterConnecting that does not hold to the documented shape', async () => {
    const heard: Heard = { updates: [], errors: [], disconnected: false };
    const socket = io(baseUrl, { path: '/ws-counters/', transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    socket.on('counterError', (error: Record<string, unknown>) => heard.errors.push(error));
    socket.on('disconnect', () => (heard.disconnected = true));
    socket.on('connect', () => socket.emit('counterConnecting', { type: 'api_v3', apiKey: account.token }));
    await eventually(async () => (heard.disconnected ? true : undefined));
    expect(heard.errors).toEqual([{ error: 'VALIDATION_ERROR', description: expect.stringContaining('userId') }]);
  });

  it('ends the feed of a key revoked meanwhile at its next change', async () => {
    const { tokenId, token } = await t.issueToken(account.accountId, 'client');
    const { heard } = client(token, 'u3');
    await updateNumber(heard, 1);
    expect((await t.call('DELETE', `/v2/accounts/${account.accountId}/tokens/${tokenId}`, { token: t.partnerKey })).statusCode).toBe(200);
    await inbound(account.token, whatsapp, '79001110004');
    await eventually(async () => (heard.disconnected ? true : undefined));
    expect(heard.errors).toEqual([{ error: 'UNAUTHORIZED', description: expect.any(String) }]);
    expect(heard.updates).toHaveLength(1);
  });
});
