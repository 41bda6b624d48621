import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BffMessage, ChatPage, MessagePage } from '../../contract/bff-chats.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const COUNT = 23;

describe(`a chat's history in the chat frame (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let channelId: string;
  let global: string;
  let chatRef: string;
  let otherRef: string;
  /** Texts of the chat in the order they were written. */
  const written: string[] = [];
  let quotedId: string;
  let replyId: string;

  const inbound = async (chatId: string, text: string) => {
    const res = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: a.token, body: { chat_type: 'whatsapp', chat_id: chatId, text } });
    if (res.statusCode !== 201) throw new Error(res.body);
    written.push(text);
    return res.json().data as { message_id: string };
  };
  const history = async (token: string, ref: string, query = '') => t.call('GET', `/bff/chats/${ref}/messages${query}`, { token });
  const page = async (query = '', token = global) => {
    const res = await history(token, chatRef, query);
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json().data as MessagePage;
  };
  const texts = (messages: BffMessage[]) => messages.map((m) => m.text);
  const cursor = (c: string | null) => encodeURIComponent(c!);

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    channelId = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
    await t.call('POST', '/v2/users', { token: a.token, body: { data: [{ id: 'agent-7', name: 'Ann Agent' }] } });
    // Several messages share an instant: the history orders by insertion, not by time alone.
    for (let i = 1; i <= COUNT - 1; i++) {
      const m = await inbound('79001110001', `m${i}`);
      if (i === 5) quotedId = m.message_id;
      if (i % 3 === 0) clock.advance(1000);
    }
    await inbound('79001110002', 'another chat');
    global = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'global' });
    const sent = await t.call('POST', '/bff/messages', {
      token: global,
      body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '79001110001' }, quoted_message_id: quotedId, text: `m${COUNT}` },
    });
    expect(sent.statusCode).toBe(201);
    written.push(`m${COUNT}`);
    replyId = (await settled(t, sent.json().data.request_id)).id;
    const chats = (await t.call('GET', '/bff/chats', { token: global })).json().data as ChatPage;
    chatRef = chats.chats.find((c) => c.chat_id === '79001110001')!.chat_ref;
    otherRef = chats.chats.find((c) => c.chat_id === '79001110002')!.chat_ref;
  });
  afterAll(() => t.close());

  const mine = () => written.filter((x) => x !== 'another chat');

  it('gives the newest messages oldest first, with the quote, the author and a cursor to older ones', async () => {
    const newest = await page('?limit=5');
    expect(texts(newest.messages)).toEqual(mine().slice(-5));
    expect(newest.newer_cursor).toBeNull();
    expect(newest.older_cursor).not.toBeNull();
    const reply = newest.messages.at(-1)!;
    expect(reply).toEqual({
      message_id: replyId,
      request_id: expect.any(String),
      chat_ref: chatRef,
      channel_id: channelId,
      direction: 'outbound',
      status: 'delivered',
      reason: null,
      text: `m${COUNT}`,
      attachment: null,
      template: null,
      keyboard: null,
      quoted_message: { message_id: quotedId, direction: 'inbound', text: 'm5', attachment_name: null, deleted: false },
      author: { crm_user_id: 'agent-7', name: 'Ann Agent' },
      created_at: clock.now().toISOString(),
      edited_at: null,
      deleted_at: null,
      deleted: false,
    });
    expect(newest.messages[0]).toMatchObject({ direction: 'inbound', author: null, quoted_message: null });
  });

  it('walks back to the first message and forward to the last without gaps or repeats', async () => {
    for (const limit of [1, 4, 7, COUNT, 200]) {
      const back: BffMessage[] = [];
      let p = await page(`?limit=${limit}`);
      back.unshift(...p.messages);
      while (p.older_cursor) {
        p = await page(`?limit=${limit}&before=${cursor(p.older_cursor)}`);
        back.unshift(...p.messages);
      }
      expect(texts(back), `back, limit ${limit}`).toEqual(mine());

      const oldest = await page(`?limit=1&before=${cursor((await page(`?limit=${COUNT - 1}`)).older_cursor)}`);
      expect(texts(oldest.messages)).toEqual(['m1']);
      expect(oldest.older_cursor).toBeNull();
      const forward: BffMessage[] = [...oldest.messages];
      let q = oldest;
      while (q.newer_cursor) {
        q = await page(`?limit=${limit}&after=${cursor(q.newer_cursor)}`);
        forward.push(...q.messages);
      }
      expect(texts(forward), `forward, limit ${limit}`).toEqual(mine());
    }
  });

  it('centres a window on a message, with cursors on both sides that continue without overlap', async () => {
    const window = await page(`?limit=5&around=${quotedId}`);
    expect(texts(window.messages)).toEqual(['m3', 'm4', 'm5', 'm6', 'm7']);
    const older = await page(`?limit=10&before=${cursor(window.older_cursor)}`);
    expect(texts(older.messages)).toEqual(['m1', 'm2']);
    expect(older.older_cursor).toBeNull();
    const newer = await page(`?limit=3&after=${cursor(window.newer_cursor)}`);
    expect(texts(newer.messages)).toEqual(['m8', 'm9', 'm10']);

    const even = await page(`?limit=4&around=${quotedId}`);
    expect(texts(even.messages)).toEqual(['m4', 'm5', 'm6', 'm7']);
    const atStart = await page(`?limit=6&around=${(await page('?limit=1&before=' + cursor((await page(`?limit=${COUNT - 1}`)).older_cursor))).messages[0]!.message_id}`);
    expect(texts(atStart.messages)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(atStart.older_cursor).toBeNull();
    const atEnd = await page(`?limit=3&around=${replyId}`);
    expect(texts(atEnd.messages)).toEqual([`m${COUNT - 1}`, `m${COUNT}`]);
    expect(atEnd.newer_cursor).toBeNull();
  });

  it('shows a deleted message with its text and a mark, and an edited one with its edit time', async () => {
    clock.advance(60_000);
    expect((await t.call('PATCH', `/v2/messages/${replyId}`, { token: a.token, body: { text: 'edited' } })).statusCode).toBe(200);
    const editedAt = clock.now().toISOString();
    expect((await t.call('DELETE', `/v2/messages/${replyId}`, { token: a.token })).statusCode).toBe(200);
    const last = (await page('?limit=1')).messages[0]!;
    expect(last).toMatchObject({ message_id: replyId, text: 'edited', edited_at: editedAt, deleted: true, deleted_at: expect.any(String) });
    written[written.length - 1] = 'edited';
  });

  it('refuses an around message of another chat, two modes at once and bad cursors', async () => {
    const other = await history(global, chatRef, `?around=${(await page('', global)).messages[0]!.message_id}&before=x`);
    expect(other.statusCode).toBe(400);
    const otherChatMessage = ((await history(global, otherRef)).json().data as MessagePage).messages[0]!.message_id;
    const foreign = await history(global, chatRef, `?around=${otherChatMessage}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('MESSAGE_NOT_FOUND');
    for (const bad of ['?before=abc', `?after=${Buffer.from('["m","0"]').toString('base64url')}`, `?after=${Buffer.from('["m","1; drop table x"]').toString('base64url')}`]) {
      const res = await history(global, chatRef, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe('VALIDATION_ERROR');
    }
  });

  it('answers 404 for a chat outside a card, of another account, or unknown; 403 for a channels session', async () => {
    const card = await openFrame(t, a.token, 'chats', { user: { id: 'agent-7' }, scope: 'card', chats: [{ chat_type: 'whatsapp', chat_id: '79001110002' }] });
    expect((await history(card, otherRef)).statusCode).toBe(200);
    const outside = await history(card, chatRef);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error).toBe('CHAT_NOT_FOUND');

    const bGlobal = await openFrame(t, b.token, 'chats', { user: { id: 'x' }, scope: 'global' });
    const foreign = await history(bGlobal, chatRef);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('CHAT_NOT_FOUND');
    expect((await history(global, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);

    const channels = await openFrame(t, a.token, 'channels', {});
    expect((await history(channels, chatRef)).statusCode).toBe(403);
  });
});
