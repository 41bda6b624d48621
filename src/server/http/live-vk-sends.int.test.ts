import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { randomIdOf } from '../transports/vk/vk-messaging.ts';
import { ANNA, SHOP, connectVkChannel, startVkSetup, type VkSetup } from '../testing/vk-fixture.ts';

describe(`live vk sends (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: VkSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startVkSetup({ clock });
    channelId = await connectVkChannel(s);
    await s.vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Здравствуйте!' });
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.vk.close();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'vk', chat_id: String(ANNA.id) }, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.request_id as string;
  };
  const outcome = async (requestId: string) => {
    const m = await settled(s.t, requestId, ['sent', 'failed']);
    return m.status === 'failed' ? `failed:${m.reason}` : m.status;
  };
  const row = async (requestId: string) =>
    (await sql<{ id: string; messenger_message_id: string | null }>`select id, messenger_message_id from messages where request_id = ${requestId}`.execute(s.t.gateway.database.db)).rows[0]!;
  const outboundWith = async (text: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${channelId} and direction = 'outbound' and text = ${text}`.execute(s.t.gateway.database.db)).rows[0]!.n;
  const sends = () => s.vk.calls.filter((c) => c.method === 'messages.send');
  const lastSent = () => s.vk.sentTo(SHOP.id).at(-1)!;

  it('sends a text to the dialog with a random_id of the message, ends it sent with VK’s id, and takes VK’s report of it as that message', async () => {
    const requestId = await send({ text: 'Добрый день! Чем помочь?' });
    expect(await outcome(requestId)).toBe('sent');
    const sent = lastSent();
    expect(sent).toMatchObject({ peer_id: ANNA.id, text: 'Добрый день! Чем помочь?', reply_to: null, random_id: randomIdOf(requestId) });
    expect((await row(requestId)).messenger_message_id).toBe(String(sent.id));
    await s.vk.settle();
    expect(await outboundWith('Добрый день! Чем помочь?')).toBe(1);
  });

  it('asks VK to post again a report of a send still under way, and records the message once', async () => {
    s.vk.echoSends('before');
    const before = s.vk.echoAnswers.length;
    const requestId = await send({ text: 'Сейчас уточню.' });
    expect(await outcome(requestId)).toBe('sent');
    expect(s.vk.echoAnswers.slice(before)).toContain(503);
    s.vk.echoSends('after');
    // VK posts it again later: the message is found by VK's number.
    const sent = lastSent();
    const secret = s.vk.serversOf(SHOP.id)[0]!.secret_key;
    const again = { type: 'message_reply', group_id: SHOP.id, secret, object: { id: sent.id, peer_id: ANNA.id, from_id: -SHOP.id, out: 1, text: 'Сейчас уточню.' } };
    expect(await s.vk.post(`${s.base}/hooks/vk/${channelId}`, again)).toEqual({ status: 200, text: 'ok' });
    expect(await outboundWith('Сейчас уточню.')).toBe(1);
  });

  it('quotes a message VK numbered with reply_to, and sends a picture as a photo and anything else as a document', async () => {
    const { rows } = await sql<{ id: string; messenger_message_id: string }>`select id, messenger_message_id from messages where channel_id = ${channelId} and direction = 'inbound' and text = 'Здравствуйте!'`.execute(s.t.gateway.database.db);
    const quoted = await send({ text: 'Отвечаю на ваш вопрос', quoted_message_id: rows[0]!.id });
    expect(await outcome(quoted)).toBe('sent');
    expect(lastSent()).toMatchObject({ reply_to: Number(rows[0]!.messenger_message_id) });

    const picture = s.vk.hostFile('bike.jpg', Buffer.alloc(2048, 1), 'image/jpeg');
    const photo = await send({ attachment: { url: picture } });
    expect(await outcome(photo)).toBe('sent');
    expect(lastSent().attachment).toMatch(new RegExp(`^photo-${SHOP.id}_\\d+_ak1$`));
    const pdf = s.vk.hostFile('price.pdf', Buffer.alloc(4096, 2), 'application/pdf');
    const doc = await send({ attachment: { url: pdf, name: 'price-list.pdf' } });
    expect(await outcome(doc)).toBe('sent');
    expect(lastSent()).toMatchObject({ text: '', attachment: expect.stringMatching(new RegExp(`^doc-${SHOP.id}_\\d+$`)) });
    expect(s.vk.uploads.slice(-2)).toEqual([
      { kind: 'photo', name: 'bike.jpg', size: 2048 },
      { kind: 'doc', name: 'price-list.pdf', size: 4096 },
    ]);
    // Over VK's limit by the size the send declares: refused without fetching anything.
    const huge = await send({ attachment: { url: pdf, name: 'huge.pdf', size: 300 * 1024 * 1024 } });
    expect(await outcome(huge)).toBe('failed:bad_content');
  });

  it('sends a file with its words from the chat frame as one VK message, takes VK’s copy of it as that message, and draws a customer’s as one', async () => {
    const frame = await openFrame(s.t, s.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    const before = sends().length;
    const pdf = s.vk.hostFile('offer.pdf', Buffer.alloc(1024, 3), 'application/pdf');
    const res = await s.t.call('POST', '/bff/messages', {
      token: frame,
      body: { channel_id: channelId, recipient: { chat_type: 'vk', chat_id: String(ANNA.id) }, attachment: { url: pdf, name: 'offer.pdf', mimetype: 'application/pdf' }, text: 'Наше предложение' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.caption_request_id).toBeUndefined();
    expect(await outcome(res.json().data.request_id)).toBe('sent');
    // One messages.send: the words in `message`, the document in `attachment`.
    expect(sends().slice(before).map((c) => [c.params.message, c.params.attachment])).toEqual([['Наше предложение', expect.stringMatching(new RegExp(`^doc-${SHOP.id}_\\d+$`))]]);
    // VK's copy (the document, then the words) is the send itself: nothing more is recorded.
    await s.vk.settle();
    expect(s.vk.echoAnswers.at(-1)).toBe(200);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${channelId} and direction = 'outbound' and messenger_message_id like ${`${lastSent().id}%`}`.execute(s.t.gateway.database.db);
    expect(rows[0]!.n).toBe(1);

    // A customer's photo with words: the words are its caption (`<id>:caption`), which the frame's history names.
    const photo = { type: 'photo', photo: { id: 457239020, album_id: -3, owner_id: ANNA.id, date: 1_795_000_000, has_tags: false, sizes: [{ type: 'x', url: 'https://sun9-1.userapi.com/impg/x.jpg', width: 604, height: 453 }] } };
    const { id } = await s.vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Такой цвет есть?', attachments: [photo] });
    const chats = (await s.t.call('GET', '/bff/chats', { token: frame })).json().data.chats as { chat_id: string; chat_ref: string }[];
    const ref = chats.find((c) => c.chat_id === String(ANNA.id))!.chat_ref;
    const shown = (await s.t.call('GET', `/bff/chats/${ref}/messages`, { token: frame })).json().data.messages as { message_id: string; text: string | null; caption_of?: string }[];
    const [file, words] = shown.slice(-2);
    const { rows: customer } = await sql<{ id: string }>`select id from messages where channel_id = ${channelId} and messenger_message_id = ${String(id)}`.execute(s.t.gateway.database.db);
    expect(file).toMatchObject({ message_id: customer[0]!.id, text: null });
    expect(words).toMatchObject({ text: 'Такой цвет есть?', caption_of: file!.message_id });
  });

  it('sends again with the same random_id when VK’s answer was lost, and VK keeps one message', async () => {
    const before = s.vk.sentTo(SHOP.id).length;
    s.vk.loseNextSendAnswer();
    const requestId = await send({ text: 'Повтор не нужен' });
    const due = await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${requestId} and send_lease_until is null`.execute(s.t.gateway.database.db);
      return rows[0]?.send_after ?? undefined;
    });
    clock.advance(due.getTime() - clock.now().getTime());
    s.t.gateway.wakeSends();
    expect(await outcome(requestId)).toBe('sent');
    const tries = sends().filter((c) => c.params.message === 'Повтор не нужен');
    expect(tries).toHaveLength(2);
    expect(new Set(tries.map((c) => c.params.random_id))).toEqual(new Set([String(randomIdOf(requestId))]));
    expect(s.vk.sentTo(SHOP.id).length - before).toBe(1);
    expect((await row(requestId)).messenger_message_id).toBe(String(lastSent().id));
  });

  it('tries a flooded send again a minute later, and fails what VK refuses for good with the interface’s reason', async () => {
    s.vk.failNext('messages.send', 9);
    const flooded = await send({ text: 'Акция!' });
    const due = await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${flooded} and send_lease_until is null`.execute(s.t.gateway.database.db);
      return rows[0]?.send_after ?? undefined;
    });
    expect(due.getTime() - clock.now().getTime()).toBe(60_000);
    clock.advance(60_000);
    s.t.gateway.wakeSends();
    expect(await outcome(flooded)).toBe('sent');
    expect(await statusTrail(s.t, flooded)).toEqual(['sent']);

    s.vk.failNext('messages.send', 914);
    expect(await outcome(await send({ text: 'Длинный текст' }))).toBe('failed:text_length_is_too_much');
    s.vk.failNext('messages.send', 15);
    expect(await outcome(await send({ text: 'Нет доступа' }))).toBe('failed:no_user_permissions');
  });

  it('switches the channel off once VK no longer takes the community’s key', async () => {
    s.vk.revoke(SHOP.id);
    expect(await outcome(await send({ text: 'Вы здесь?' }))).toBe('failed:session_revoked');
    const channel = (await s.t.call('GET', `/v2/channels/${channelId}`, { token: s.token })).json().data[0];
    expect(channel).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
  });
});
