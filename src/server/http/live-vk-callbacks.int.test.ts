import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { ANNA, SHOP, connectVkChannel, startVkSetup, type VkSetup } from '../testing/vk-fixture.ts';

const PHOTO = {
  type: 'photo',
  photo: {
    id: 457239017,
    album_id: -3,
    owner_id: ANNA.id,
    date: 1_795_000_000,
    has_tags: false,
    sizes: [
      { type: 'm', url: 'https://sun9-1.userapi.com/impg/m.jpg', width: 130, height: 97 },
      { type: 'w', url: 'https://sun9-1.userapi.com/impg/w.jpg', width: 1280, height: 960 },
    ],
  },
};

describe(`live vk: VK's callbacks (${databaseKind()})`, () => {
  let s: VkSetup;
  let channelId: string;
  let hook: string;
  let secret: string;

  beforeAll(async () => {
    s = await startVkSetup();
    channelId = await connectVkChannel(s);
    hook = `${s.base}/hooks/vk/${channelId}`;
    secret = s.vk.serversOf(SHOP.id)[0]!.secret_key;
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.vk.close();
  });

  const stream = () => eventStream(s.t.gateway.database, s.accountId);
  const added = async (events: ReturnType<typeof stream>) => (await events.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
  const messageCount = async () => (await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${channelId}`.execute(s.t.gateway.database.db)).rows[0]!.n;

  it('answers VK’s confirmation with the community’s code as plain text, only with the server’s secret, saying nothing of a channel to anyone else', async () => {
    const confirmed = await s.vk.post(hook, { type: 'confirmation', group_id: SHOP.id, secret });
    expect(confirmed).toEqual({ status: 200, text: `c0de${SHOP.id}` });
    const wrong = await s.vk.post(hook, { type: 'confirmation', group_id: SHOP.id, secret: 'x'.repeat(32) });
    const none = await s.vk.post(hook, { type: 'confirmation', group_id: SHOP.id });
    const unknown = await s.vk.post(`${s.base}/hooks/vk/0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a`, { type: 'confirmation', group_id: SHOP.id, secret });
    for (const refused of [wrong, none, unknown]) {
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('c0de');
    }
    expect(wrong.text).toBe(unknown.text);
  });

  it('records nothing that comes without the secret', async () => {
    const before = await messageCount();
    const forged = { type: 'message_new', group_id: SHOP.id, secret: 'forged', object: { message: { id: 9001, peer_id: ANNA.id, from_id: ANNA.id, text: 'forged' } } };
    expect((await s.vk.post(hook, forged)).status).toBe(401);
    expect((await s.vk.post(hook, { ...forged, secret: undefined })).status).toBe(401);
    // The channel's secret, but another community's event: not the channel's.
    expect((await s.vk.post(hook, { ...forged, secret, group_id: SHOP.id + 1 })).status).toBe(401);
    expect(await messageCount()).toBe(before);
  });

  it('records a customer’s photo and its words, named as VK names them, once however often VK posts it', async () => {
    const events = stream();
    await events.since();
    const { id, answers } = await s.vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Здравствуйте! Есть в наличии?', attachments: [PHOTO] });
    expect(answers).toEqual([{ status: 200, text: 'ok' }]);
    const recipient = { chat_type: 'vk', chat_id: String(ANNA.id), name: `${ANNA.first} ${ANNA.last}` };
    // The photo, then its words as its caption: one VK message recorded as two, as the other drivers record a caption.
    expect(await added(events)).toEqual([
      expect.objectContaining({ channel_id: channelId, direction: 'inbound', attachment: { url: 'https://sun9-1.userapi.com/impg/w.jpg', mimetype: 'image/jpeg' }, recipient: expect.objectContaining(recipient) }),
      expect.objectContaining({ direction: 'inbound', text: 'Здравствуйте! Есть в наличии?', recipient: expect.objectContaining(recipient) }),
    ]);
    // VK posts a callback again when it did not get `ok`: the same message is found, not recorded twice.
    const again = { type: 'message_new', group_id: SHOP.id, secret, object: { message: { id, peer_id: ANNA.id, from_id: ANNA.id, text: 'Здравствуйте! Есть в наличии?', attachments: [PHOTO] } } };
    expect(await s.vk.post(hook, again)).toEqual({ status: 200, text: 'ok' });
    expect(await added(events)).toEqual([]);
    // Recorded before the words were numbered as the photo's caption (the words `<id>`, the photo `<id>:1`), then
    // posted again by VK after an upgrade: nothing recorded twice.
    const renumber = (from: string, to: string) => sql`update messages set messenger_message_id = ${to} where channel_id = ${channelId} and messenger_message_id = ${from}`.execute(s.t.gateway.database.db);
    await renumber(String(id), `${id}:1`);
    await renumber(`${id}:caption`, String(id));
    const before = await messageCount();
    expect(await s.vk.post(hook, again)).toEqual({ status: 200, text: 'ok' });
    expect(await added(events)).toEqual([]);
    expect(await messageCount()).toBe(before);
    // A document by VK's own address, under its title.
    const doc = { type: 'doc', doc: { id: 7, owner_id: ANNA.id, title: 'заказ.pdf', ext: 'pdf', size: 1024, date: 1_795_000_000, type: 1, url: 'https://vk.com/doc1001_7?hash=h1&dl=1' } };
    await s.vk.customerWrites(SHOP.id, { from: ANNA.id, attachments: [doc] });
    expect(await added(events)).toEqual([
      expect.objectContaining({ direction: 'inbound', attachment: { url: 'https://vk.com/doc1001_7?hash=h1&dl=1', name: 'заказ.pdf', mimetype: 'application/pdf', size: 1024 } }),
    ]);
    // The name was asked of VK once.
    expect(s.vk.calls.filter((c) => c.method === 'users.get')).toHaveLength(1);
  });

  it('records what an admin wrote in VK as outbound, and a customer’s edit as the message’s new words', async () => {
    const events = stream();
    await events.since();
    const reply = await s.vk.adminWrites(SHOP.id, ANNA.id, 'Да, есть. Приезжайте.');
    expect(reply.answers).toEqual([{ status: 200, text: 'ok' }]);
    expect(await added(events)).toEqual([expect.objectContaining({ direction: 'outbound', text: 'Да, есть. Приезжайте.', recipient: expect.objectContaining({ chat_type: 'vk', chat_id: String(ANNA.id) }) })]);
    const { rows } = await sql<{ unanswered: number }>`select unanswered from chats where channel_id = ${channelId} and chat_id = ${String(ANNA.id)}`.execute(s.t.gateway.database.db);
    expect(rows[0]!.unanswered).toBe(0);

    const { id } = await s.vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Во сколько?' });
    await events.since();
    expect(await s.vk.edits(SHOP.id, ANNA.id, id, 'Во сколько открываетесь?')).toEqual([{ status: 200, text: 'ok' }]);
    const edited = (await events.since()).filter((e) => e.name === 'message.edit').map((e) => e.payload);
    expect(edited).toEqual([expect.objectContaining({ text: 'Во сколько открываетесь?' })]);

    // The words of a photo are its caption's message: an edit changes them there, and the photo stays as it was.
    const photo = await s.vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Этот?', attachments: [PHOTO] });
    const [file, caption] = await added(events);
    expect(await s.vk.edits(SHOP.id, ANNA.id, photo.id, 'Этот, синий?')).toEqual([{ status: 200, text: 'ok' }]);
    expect((await events.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', expect.objectContaining({ message_id: (caption as { message_id: string }).message_id, text: 'Этот, синий?', old_text: 'Этот?' })],
    ]);
    expect(file).toMatchObject({ attachment: { url: 'https://sun9-1.userapi.com/impg/w.jpg' } });
  });

  it('takes a customer’s refusal of messages, after which sends to them fail as blocked', async () => {
    expect(await s.vk.deny(SHOP.id, ANNA.id)).toEqual([{ status: 200, text: 'ok' }]);
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'vk', chat_id: String(ANNA.id) }, text: 'Ждём вас!' } });
    expect(res.statusCode, res.body).toBe(201);
    const requestId = res.json().data.request_id as string;
    expect(await settled(s.t, requestId, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'chat_is_blocked' });
  });
});
