import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { ANNA, OLEG, PAGE, connectInstagramChannel, startInstagramSetup, type InstagramSetup } from '../testing/instagram-fixture.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const ACCOUNT = PAGE.instagram.id;

describe(`live instagram: sending, echoes, reads, refusals (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: InstagramSetup;
  let channelId: string;
  let annasMid: string;

  beforeAll(async () => {
    s = await startInstagramSetup({ clock });
    channelId = await connectInstagramChannel(s);
    ({ mid: annasMid } = await s.graph.customerWrites(ACCOUNT, ANNA.igsid, { text: 'Здравствуйте!' }));
    await s.graph.customerWrites(ACCOUNT, OLEG.igsid, { text: 'Hello' });
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.graph.close();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { request_id: string };
  };
  const toAnna = (content: Record<string, unknown>) => send({ recipient: { chat_type: 'instagram', chat_id: 'anna.k' }, ...content });
  const sends = () => s.graph.calls.filter((c) => c.method === 'POST' && c.path === `/${PAGE.id}/messages`);
  const midOf = async (requestId: string) => {
    const { rows } = await sql<{ mid: string }>`select messenger_message_id as mid from messages where request_id = ${requestId}`.execute(s.t.gateway.database.db);
    return rows[0]!.mid;
  };
  const messagesOfAnna = async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from messages m join chats c on c.id = m.chat_ref where c.channel_id = ${channelId} and c.chat_id = 'anna.k'`.execute(s.t.gateway.database.db);
    return rows[0]!.n;
  };

  it('sends a text to the IGSID behind the chat’s name; Meta’s echo of it is not recorded again', async () => {
    const before = await messagesOfAnna();
    const { request_id } = await toAnna({ text: 'Да, размер M есть.' });
    expect(await settled(s.t, request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)).toMatchObject({ token: PAGE.token, body: { recipient: { id: ANNA.igsid }, message: { text: 'Да, размер M есть.' } } });
    await s.graph.webhooks.settled();
    expect(s.graph.webhooks.posts.at(-1)).toMatchObject({ status: 200 });
    expect(await messagesOfAnna()).toBe(before + 1);
    expect(await statusTrail(s.t, request_id)).toEqual(['sent']);
  });

  it('holds an echo that comes before the send’s answer, until the send is recorded: still one message', async () => {
    s.graph.echoes = 'before-answer';
    const events = eventStream(s.t.gateway.database, s.accountId);
    await events.since();
    const postsBefore = s.graph.webhooks.posts.length;
    const before = await messagesOfAnna();
    const { request_id } = await toAnna({ text: 'Отправим сегодня.' });
    expect(await settled(s.t, request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    await s.graph.webhooks.settled();
    s.graph.echoes = 'after-answer';
    const answers = s.graph.webhooks.posts.slice(postsBefore).map((p) => p.status);
    expect(answers[0]).toBe(503);
    expect(answers.at(-1)).toBe(200);
    expect(await messagesOfAnna()).toBe(before + 1);
    expect((await events.since()).map((e) => e.name)).toEqual(['message.status_update']);
  });

  it('moves what the customer read to read, up to the message named, and never back', async () => {
    const first = await toAnna({ text: 'Первое' });
    const second = await toAnna({ text: 'Второе' });
    await settled(s.t, second.request_id, ['sent', 'failed']);
    const third = await toAnna({ text: 'Третье' });
    await settled(s.t, third.request_id, ['sent', 'failed']);
    await s.graph.webhooks.settled();
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { read: { mid: await midOf(second.request_id) } })).toBe(200);
    expect(await statusTrail(s.t, first.request_id)).toEqual(['sent', 'read']);
    expect(await statusTrail(s.t, second.request_id)).toEqual(['sent', 'read']);
    expect(await statusTrail(s.t, third.request_id)).toEqual(['sent']);
    // A late read of an earlier message reads nothing more, nor back; a read of the last reads it alone.
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { read: { mid: await midOf(first.request_id) } })).toBe(200);
    expect(await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { read: { mid: await midOf(third.request_id) } })).toBe(200);
    expect(await statusTrail(s.t, first.request_id)).toEqual(['sent', 'read']);
    expect(await statusTrail(s.t, third.request_id)).toEqual(['sent', 'read']);
  });

  it('sends files by their URL, as pictures, video, sound or files, and a quote as reply_to', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: s.graph.hostFile('invoice.pdf'), name: 'invoice.pdf' }, 'file'],
      [{ url: s.graph.hostFile('look'), mimetype: 'image/png' }, 'image'],
      [{ url: s.graph.hostFile('unboxing.mp4') }, 'video'],
      [{ url: s.graph.hostFile('note.m4a'), mimetype: 'audio/mp4' }, 'audio'],
    ];
    for (const [attachment, type] of cases) {
      const { request_id } = await toAnna({ attachment });
      expect(await settled(s.t, request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
      expect(sends().at(-1)!.body).toEqual({ recipient: { id: ANNA.igsid }, message: { attachment: { type, payload: { url: attachment.url } } } });
    }
    const quoting = await toAnna({ text: 'Отвечаю на ваш вопрос', quoted_message_id: await messageIdOfMid(annasMid) });
    await settled(s.t, quoting.request_id, ['sent', 'failed']);
    expect(sends().at(-1)!.body).toMatchObject({ reply_to: { mid: annasMid } });
    // A file Meta cannot fetch fails as content it could not get.
    const missing = await toAnna({ attachment: { url: 'https://files.crm.example/gone.pdf' } });
    expect(await settled(s.t, missing.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'can_not_get_content' });
  });

  const messageIdOfMid = async (mid: string) => {
    const { rows } = await sql<{ id: string }>`select id from messages where channel_id = ${channelId} and messenger_message_id = ${mid}`.execute(s.t.gateway.database.db);
    return rows[0]!.id;
  };

  it('sends a message whose quote Meta refuses without the quote', async () => {
    await s.graph.customerEvent(ACCOUNT, ANNA.igsid, { postback: { title: 'Доставка', payload: 'DELIVERY' } });
    const { rows } = await sql<{ id: string }>`select id from messages where channel_id = ${channelId} and messenger_message_id like 'pb.%'`.execute(s.t.gateway.database.db);
    const before = sends().length;
    const { request_id } = await toAnna({ text: 'Доставка 2–3 дня', quoted_message_id: rows[0]!.id });
    expect(await settled(s.t, request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const tries = sends().slice(before);
    expect(tries.map((c) => 'reply_to' in c.body)).toEqual([true, false]);
  });

  const toOleg = async (text: string) => {
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'instagram', chat_id: 'Oleg_Shop' }, text } });
    const data = res.json().data as { request_id?: string; chat_id?: string } | null;
    return { status: res.statusCode, requestId: data?.request_id ?? '', chatId: data?.chat_id };
  };

  it('tries a throttled send again no sooner than Meta says its calls are taken again', async () => {
    const usage = JSON.stringify({ [PAGE.id]: [{ type: 'messenger', call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: 2 }] });
    s.graph.failNext(`POST /${PAGE.id}/messages`, 1, { code: 613, message: 'Calls to this api have exceeded the rate limit.', headers: { 'x-business-use-case-usage': usage } });
    const refusedAt = clock.now().getTime();
    const { requestId, chatId } = await toOleg('Ваш заказ готов');
    // The answer echoes the name as the CRM wrote it; the message is kept in Oleg's chat all the same: Instagram's
    // names are compared without case.
    expect(chatId).toBe('Oleg_Shop');
    const kept = await sql<{ chat_id: string }>`select c.chat_id from messages m join chats c on c.id = m.chat_ref where m.request_id = ${requestId}`.execute(s.t.gateway.database.db);
    expect(kept.rows[0]!.chat_id).toBe('oleg_shop');
    const due = await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${requestId}`.execute(s.t.gateway.database.db);
      return rows[0]?.send_after ?? undefined;
    });
    expect(due.getTime() - refusedAt).toBe(2 * 60_000);
    clock.advance(2 * 60_000);
    s.t.gateway.wakeSends();
    expect(await settled(s.t, requestId, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toMatchObject({ recipient: { id: OLEG.igsid } });
    expect(await statusTrail(s.t, requestId)).toEqual(['sent']);
    // Its echo is found in that chat, not recorded again.
    await s.graph.webhooks.settled();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from chats where channel_id = ${channelId} and lower(chat_id) = 'oleg_shop'`.execute(s.t.gateway.database.db);
    expect(rows[0]!.n).toBe(1);
    const { rows: copies } = await sql<{ n: number }>`select count(*)::int as n from messages where messenger_message_id = ${await midOf(requestId)}`.execute(s.t.gateway.database.db);
    expect(copies[0]!.n).toBe(1);
  });

  it('fails a send Instagram does not take as the interface says, without asking Meta where it knows already', async () => {
    const before = sends().length;
    const stranger = await send({ recipient: { chat_type: 'instagram', chat_id: 'never.wrote' }, text: 'Hello first' });
    expect(await settled(s.t, stranger.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'messages_not_text_first' });
    // 600 Cyrillic letters: within the interface's 1000 characters, over Meta's 1000 bytes.
    const long = await toAnna({ text: 'я'.repeat(600) });
    expect(await settled(s.t, long.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'text_length_is_too_much' });
    expect(sends().length).toBe(before);

    s.graph.closeWindow(OLEG.igsid);
    const late = await send({ recipient: { chat_type: 'instagram', chat_id: 'oleg_shop' }, text: 'Are you still there?' });
    expect(await settled(s.t, late.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'messages_not_text_first' });
    s.graph.block(ANNA.igsid);
    const blocked = await toAnna({ text: 'Still there?' });
    expect(await settled(s.t, blocked.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'chat_is_blocked' });
    expect(sends().length).toBe(before + 2);
    // Messages are not changed through Meta's Instagram API.
    const { rows } = await sql<{ id: string }>`select id from messages where request_id = ${late.request_id}`.execute(s.t.gateway.database.db);
    const sent = rows[0]!;
    expect((await s.t.call('PATCH', `/v2/messages/${sent.id}`, { token: s.token, body: { text: 'y' } })).json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_EDITING');
    expect((await s.t.call('DELETE', `/v2/messages/${sent.id}`, { token: s.token })).json().error).toBe('CHANNEL_INVALID_TRANSPORT_FOR_DELETION');
  });

  it('switches the channel off when Meta no longer takes the page’s token, and drops what Meta posts for it meanwhile', async () => {
    s.graph.revoke(PAGE.token);
    const { requestId } = await toOleg('Are you there?');
    expect(await settled(s.t, requestId, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'session_revoked' });
    expect((await s.t.call('GET', `/v2/channels/${channelId}`, { token: s.token })).json().data[0]).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    expect((await toOleg('Hello?')).status).toBe(409);
    const events = eventStream(s.t.gateway.database, s.accountId);
    await events.since();
    expect((await s.graph.customerWrites(ACCOUNT, OLEG.igsid, { text: 'Anyone?' })).status).toBe(200);
    expect(await events.since()).toEqual([]);
  });
});
