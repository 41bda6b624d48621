import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../contract/realtime.ts';
import { channelClient } from '../testing/channel-client.ts';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

type UnansweredUpdate = Extract<StreamEvent, { name: 'chat.unanswered_update' }>;

/** The count a frame shows for a chat: the value of the highest position it received (the contract's rule). */
function countOf(client: FrameClient, chatId: string): number | undefined {
  const updates = client.events.filter((e): e is UnansweredUpdate => e.name === 'chat.unanswered_update' && e.payload.chat_id === chatId);
  let best: UnansweredUpdate | undefined;
  for (const u of updates) if (!best || u.position >= best.position) best = u;
  return best?.payload.unanswered_count;
}

describe(`unanswered counts pushed to the frames (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;
  let a: { accountId: string; token: string };
  let channelId: string;
  let cardToken: string;
  let card: FrameClient;
  let global: FrameClient;
  let other: FrameClient;
  let bob: string;
  let eve: string;

  const inbound = async (username: string, text: string) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: a.token, body: { chat_type: 'telegram', username, name: username, text } });
    expect(res.statusCode).toBe(201);
    return res.json().data as { message_id: string; chat_id: string };
  };
  const reply = async (chatId: string, extra: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/v2/messages', {
      token: a.token,
      body: { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: chatId }, text: 'reply', ...extra },
    });
    expect(res.statusCode).toBe(201);
    return settled(t, res.json().data.request_id);
  };

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    a = await t.newAccount('A');
    const b = await t.newAccount('B');
    channelId = await activeChannel(t, channelClient(t, a.token), 'telegram');
    cardToken = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'card', chats: [{ chat_type: 'telegram', username: 'bob' }] });
    card = frameClient(baseUrl, cardToken);
    global = frameClient(baseUrl, await openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' }));
    other = frameClient(baseUrl, await openFrame(t, b.token, 'chats', { user: { id: 'u1' }, scope: 'global' }));
    await Promise.all([card.connect(), global.connect(), other.connect()]);
  });
  afterAll(async () => {
    for (const c of [card, global, other]) c?.close();
    await t.close();
  });

  it('pushes each inbound message’s new count to the frames that see the chat, and only to them', async () => {
    bob = (await inbound('bob', 'one')).chat_id;
    await inbound('bob', 'two');
    eve = (await inbound('eve', 'hi')).chat_id;
    await global.until(() => countOf(global, bob) === 2 && countOf(global, eve) === 1, 'the counts on the global frame');
    await card.until(() => countOf(card, bob) === 2, "bob's count on the card frame");
    const update = card.events.find((e): e is UnansweredUpdate => e.name === 'chat.unanswered_update')!;
    expect(update.payload).toEqual({ chat_ref: expect.any(String), channel_id: channelId, chat_type: 'telegram', chat_id: bob, unanswered_count: expect.any(Number) });
    // Its position is that of the message.add it follows, and its id names that event.
    const cause = card.events.find((e) => e.id === update.id.replace(/\.unanswered$/, ''));
    expect(cause).toMatchObject({ name: 'message.add', position: update.position });

    // The chat list agrees with what was pushed.
    const listed = (await t.call('GET', '/bff/chats', { token: cardToken })).json().data.chats;
    expect(listed).toEqual([expect.objectContaining({ chat_id: bob, chat_ref: update.payload.chat_ref, unanswered_count: 2 })]);
  });

  it('pushes the reset when a reply goes out, and keeps the count for a reply that asked to keep it', async () => {
    await reply(eve, { reset_unanswered: false });
    await reply(bob);
    await card.until(() => countOf(card, bob) === 0, "bob's reset on the card frame");
    await global.until(() => countOf(global, bob) === 0, "bob's reset on the global frame");
    expect(countOf(global, eve)).toBe(1);
  });

  it('never tells a card frame about other chats, nor another account anything', () => {
    expect(card.events.some((e) => e.name === 'chat.unanswered_update' && e.payload.chat_id === eve)).toBe(false);
    expect(other.events).toEqual([]);
  });

  it('gives a reconnecting frame one update per chat with the current count', async () => {
    card.close();
    await inbound('bob', 'while away 1');
    await inbound('bob', 'while away 2');
    await inbound('eve', 'not for the card');
    await global.until(() => countOf(global, bob) === 2, 'the new count on the global frame');
    const seenBefore = card.events.length;
    await card.connect();
    const missed = card.events.slice(seenBefore);
    expect(missed.filter((e) => e.name === 'message.add')).toHaveLength(2);
    const updates = missed.filter((e): e is UnansweredUpdate => e.name === 'chat.unanswered_update');
    expect(updates.map((u) => [u.payload.chat_id, u.payload.unanswered_count])).toEqual([[bob, 2]]);
    expect(countOf(card, bob)).toBe(2);
  });

  it('keeps webhook events as the interface defines them: nothing recorded for the counts', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from events where name = 'chat.unanswered_update'`.execute(t.gateway.database.db);
    expect(rows[0]!.n).toBe(0);
  });
});
