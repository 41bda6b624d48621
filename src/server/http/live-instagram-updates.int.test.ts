import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { ANNA, OLEG, PAGE, connectInstagramChannel, startInstagramSetup, type InstagramSetup } from '../testing/instagram-fixture.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const ACCOUNT = PAGE.instagram.id;
const CDN = 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1790&signature=AbXyZ';
const profileCalls = (s: InstagramSetup, igsid: string) => s.graph.calls.filter((c) => c.method === 'GET' && c.path === `/${igsid}`);

describe(`live instagram: what customers do (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: InstagramSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startInstagramSetup({ clock });
    channelId = await connectInstagramChannel(s);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.graph.close();
  });

  const stream = () => eventStream(s.t.gateway.database, s.accountId);
  const added = async (events: ReturnType<typeof stream>) => (await events.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
  const messageIdOf = async (mid: string) => {
    const { rows } = await sql<{ id: string }>`select id from messages where channel_id = ${channelId} and messenger_message_id = ${mid}`.execute(s.t.gateway.database.db);
    return rows[0]!.id;
  };

  it('records a customer’s message in the chat of their account name, asking Meta who they are once', async () => {
    const events = stream();
    await events.since();
    const { status, mid } = await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { text: 'Здравствуйте! Есть размер M?' });
    expect(status).toBe(200);
    expect(await added(events)).toEqual([
      expect.objectContaining({ channel_id: channelId, direction: 'inbound', status: 'sent', text: 'Здравствуйте! Есть размер M?', recipient: { chat_type: 'instagram', chat_id: 'anna.k', username: null, phone: null, name: 'Anna K' } }),
    ]);
    expect(profileCalls(s, ANNA.igsid)).toEqual([expect.objectContaining({ token: PAGE.token, query: { fields: 'name,username' } })]);

    // Meta posts it again (its answer was lost): the message stays one. A second message: no second lookup.
    expect(await s.graph.webhooks.post(s.graph.webhooks.posts.at(-1)!.body)).toBe(200);
    expect(await events.since()).toEqual([]);
    await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { text: 'Или L?', reply_to: { mid } });
    expect(await added(events)).toEqual([expect.objectContaining({ text: 'Или L?', quoted_message_id: await messageIdOf(mid), recipient: expect.objectContaining({ chat_id: 'anna.k' }) })]);
    expect(profileCalls(s, ANNA.igsid)).toHaveLength(1);
  });

  it('hands on a customer’s files by Meta’s CDN addresses, each a message, the words after them', async () => {
    const events = stream();
    await events.since();
    const { mid } = await s.graph.customerWrites(ACCOUNT, ANNA.igsid, {
      text: 'Вот фото и видео',
      attachments: [
        { type: 'image', payload: { url: `${CDN}&name=photo` } },
        { type: 'video', payload: { url: 'https://video.cdninstagram.com/v/t42/clip_n.mp4?oh=00_AbC&oe=6700' } },
        { type: 'like_heart', payload: {} },
      ],
    });
    expect(await added(events)).toEqual([
      expect.objectContaining({ attachment: { url: `${CDN}&name=photo` } }),
      expect.objectContaining({ attachment: { url: 'https://video.cdninstagram.com/v/t42/clip_n.mp4?oh=00_AbC&oe=6700', name: 'clip_n.mp4', mimetype: 'video/mp4' } }),
      expect.objectContaining({ text: 'Вот фото и видео' }),
    ]);
    const { rows } = await sql<{ mid: string }>`select messenger_message_id as mid from messages where channel_id = ${channelId} and messenger_message_id like ${`${mid}%`} order by seq`.execute(s.t.gateway.database.db);
    expect(rows.map((r) => r.mid)).toEqual([mid, `${mid}:1`, `${mid}:text`]);
    // A shared post is its address; a sticker or a message Instagram cannot show is not recorded.
    await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { attachments: [{ type: 'share', payload: { url: 'https://www.instagram.com/p/C1a2B3/' } }] });
    await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { is_unsupported: true });
    await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { attachments: [{ type: 'sticker', payload: { url: `${CDN}&sticker` } }] });
    expect(await added(events)).toEqual([expect.objectContaining({ attachment: { url: 'https://www.instagram.com/p/C1a2B3/' } })]);
  });

  it('records edits and messages the customer took back, every part of them; reactions are taken and dropped', async () => {
    const events = stream();
    const { mid: typo } = await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { text: 'Доставка в Мсокву?' });
    const { mid: photos } = await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { attachments: [{ type: 'image', payload: { url: `${CDN}&a` } }, { type: 'image', payload: { url: `${CDN}&b` } }] });
    await events.since();
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { message_edit: { mid: typo, text: 'Доставка в Москву?', num_edit: 1 } })).toBe(200);
    expect(await events.since()).toEqual([
      { name: 'message.edit', payload: expect.objectContaining({ message_id: await messageIdOf(typo), crm_user_id: null, text: 'Доставка в Москву?', old_text: 'Доставка в Мсокву?' }) },
    ]);
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { message: { mid: photos, is_deleted: true } })).toBe(200);
    const deleted = await events.since();
    expect(deleted.map((e) => [e.name, e.payload.message_id])).toEqual([
      ['message.delete', await messageIdOf(photos)],
      ['message.delete', await messageIdOf(`${photos}:1`)],
    ]);
    expect(deleted[0]!.payload.crm_user_id).toBeNull();
    const { rows } = await sql<{ text: string | null; deleted: boolean }>`select text, deleted_at is not null as deleted from messages where messenger_message_id like ${`${photos}%`}`.execute(s.t.gateway.database.db);
    expect(rows.every((r) => r.deleted)).toBe(true);
    // Taken back again, reacted to, referred: nothing more.
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { message: { mid: photos, is_deleted: true } })).toBe(200);
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { reaction: { mid: typo, action: 'react', reaction: 'love', emoji: '❤️' } })).toBe(200);
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { referral: { ref: 'ad', source: 'ADS', type: 'OPEN_THREAD' } })).toBe(200);
    expect(await events.since()).toEqual([]);
  });

  it('records a press of an icebreaker as the customer’s words, and what the owner wrote in Instagram’s app as outbound', async () => {
    const events = stream();
    await events.since();
    await s.graph.customerEvent(ACCOUNT, OLEG.igsid, { postback: { mid: 'aWdfcG9zdGJhY2s', title: 'Где мой заказ?', payload: 'ORDER_STATUS' } });
    expect(await added(events)).toEqual([expect.objectContaining({ direction: 'inbound', text: 'Где мой заказ?', recipient: expect.objectContaining({ chat_id: 'oleg_shop', name: 'Oleg' }) })]);
    const { status } = await s.graph.ownerWrites(ACCOUNT, OLEG.igsid, 'Заказ уже в пути');
    expect(status).toBe(200);
    expect(await added(events)).toEqual([expect.objectContaining({ direction: 'outbound', status: 'sent', text: 'Заказ уже в пути', crm_user_id: null, recipient: expect.objectContaining({ chat_id: 'oleg_shop' }) })]);
    const { rows } = await sql<{ unanswered: number }>`select unanswered from chats where channel_id = ${channelId} and chat_id = 'oleg_shop'`.execute(s.t.gateway.database.db);
    expect(rows[0]!.unanswered).toBe(0);
  });

  it('names a customer Meta does not say the name of by their IGSID, and asks again after a day', async () => {
    const shy = '6100000000000077';
    s.graph.addPerson(shy, { error: { code: 230, message: 'User consent is required to access user profile' } });
    const events = stream();
    await events.since();
    await s.graph.customerWrites(ACCOUNT, shy, { text: 'Hi' });
    expect(await added(events)).toEqual([expect.objectContaining({ recipient: expect.objectContaining({ chat_id: shy, name: null }) })]);
    await s.graph.customerWrites(ACCOUNT, shy, { text: 'Hello?' });
    expect(profileCalls(s, shy)).toHaveLength(1);
    s.graph.addPerson(shy, { username: 'Shy.One', name: 'Shy' });
    clock.advance(25 * 60 * 60_000);
    await s.graph.customerWrites(ACCOUNT, shy, { text: 'Now?' });
    expect(await added(events)).toEqual([
      expect.objectContaining({ text: 'Hello?', recipient: expect.objectContaining({ chat_id: shy }) }),
      expect.objectContaining({ text: 'Now?', recipient: expect.objectContaining({ chat_id: 'shy.one', name: 'Shy' }) }),
    ]);
    expect(profileCalls(s, shy)).toHaveLength(2);
  });

  it('asks Meta to post again when it cannot say now who a new customer is, and records the message once', async () => {
    const newcomer = '6100000000000088';
    s.graph.addPerson(newcomer, { username: 'newcomer', name: 'New Comer' });
    s.graph.failNext(`GET /${newcomer}`, 2, { status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.' });
    const events = stream();
    await events.since();
    const { status } = await s.graph.customerWrites(ACCOUNT, newcomer, { text: 'Есть доставка?' });
    expect(status).toBe(503);
    await s.graph.webhooks.settled();
    expect(await added(events)).toEqual([expect.objectContaining({ text: 'Есть доставка?', recipient: expect.objectContaining({ chat_id: 'newcomer' }) })]);
    expect(profileCalls(s, newcomer)).toHaveLength(3);
  });
});
