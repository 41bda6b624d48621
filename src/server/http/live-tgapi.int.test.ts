import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { chromiumVoiceNote } from '../testing/voice-fixture.ts';
import { eventStream } from '../testing/event-stream.ts';
import { openFrame } from '../testing/frames.ts';
import { eventually } from '../testing/eventually.ts';
import type { TestGateway } from '../testing/harness.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { lastingDatabase, startLiveAt } from '../testing/restarted-gateway.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { telegramAccountFake, type TelegramAccountFake } from '../testing/telegram-account-fake.ts';
import { databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { telegramRandomId } from '../transports/tgapi/messaging.ts';

const self = { id: 700100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
const other = { id: 700200, firstName: 'Someone', lastName: 'Else', username: 'someone_else', phone: '79990009999' };
const anna = { id: 700300, firstName: 'Anna', lastName: 'Kravets', username: 'anna_k', phone: '79991112233' };
const boris = { id: 700400, firstName: 'Boris', username: 'boris_b', phone: '79994445566' };
const vera = { id: 700500, firstName: 'Vera', phone: '79997778899' };
const GROUP = { id: 880011, title: 'Acme wholesale' };
const ENV = { SECRET_KEY: 's'.repeat(40), WEBHOOK_ALLOW_LOOPBACK: 'true' };
/** A small PNG, served to the gateway as a CRM's file. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** The token inside a QR's payload, read back from the `tg://login` link the fake's client was asked for. */
const tokensExported = (fake: TelegramAccountFake) => fake.calls.filter((c) => c._ === 'auth.exportLoginToken').length;

describe(`personal Telegram accounts: connecting (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  const fake = telegramAccountFake({ self, password: 'correct horse battery staple', seed: 'connect' });
  for (const user of [other, anna, boris, vera]) fake.addUser(user);
  fake.addGroup({ ...GROUP, members: [self.id, anna.id] });
  let database: TestDatabase;
  let files: Server;
  let filesUrl: string;
  let t: TestGateway;
  let token: string;
  let channelId: string;
  let accountId: string;
  let api: ReturnType<typeof channelClient>;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    database = await lastingDatabase('tgapi-');
    files = createServer((req, res) => {
      if (req.url === '/voice-1.webm') return void res.writeHead(200, { 'content-type': 'audio/webm' }).end(chromiumVoiceNote());
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    ({ t } = await startLiveAt(database, ENV, { clock }, { tgapiClients: fake.clients }));
    ({ accountId, token } = await t.newAccount());
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, accountId);
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    files?.close();
  });
  const send = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { request_id: string };
  };
  const lastSent = () => [...fake.messages.values()].at(-1)!;
  const added = async () => (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
  beforeEach(async () => {
    await stream.since();
  });

  it('shows Telegram’s login token as a QR, renews it, and asks for the two-factor password after the scan', async () => {
    const { channel_id: id } = await api.create('tgapi');
    channelId = id;
    // The create is answered before Telegram is asked: the first code follows once Telegram gave a token.
    const events = await stream.since();
    expect(events.map((e) => e.name)).toEqual(['channel.create', 'channel.status_update']);
    const [firstQr] = await eventually(async () => {
      const shown = (await stream.since()).filter((e) => e.name === 'channel.qr_update');
      return shown.length > 0 ? shown : undefined;
    });
    expect(firstQr!.payload).toMatchObject({ channel_id: id, platform: 'telegram_api', qr_code: expect.stringMatching(/^data:image\/png;base64,/) });
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'qr' });
    expect(tokensExported(fake)).toBe(1);

    // Each QR the channel shows is a new token from Telegram.
    clock.advance(20_000);
    expect((await api.get(id)).reason).toBe('qr');
    const renewed = await stream.since();
    expect(renewed.map((e) => e.name)).toEqual(['channel.qr_update']);
    expect(renewed[0]!.payload.qr_code).not.toBe(firstQr!.payload.qr_code);
    expect(tokensExported(fake)).toBe(2);

    fake.scan();
    await eventually(async () => ((await api.get(id)).reason === 'wait_for_password' ? true : undefined));
    expect(await stream.since()).toEqual([{ name: 'channel.status_update', payload: { channel_id: id, status: 'init', reason: 'wait_for_password' } }]);

    const wrong = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'tr0ub4dor&3', transport: 'tgapi' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'TWO_FACTOR_CODE_INVALID' });
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'wait_for_password' });

    const right = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'correct horse battery staple', transport: 'tgapi' });
    expect(right.statusCode, right.body).toBe(200);
    expect(await api.get(id)).toMatchObject({ status: 'active', phone: self.phone, username: self.username, messenger_id: String(self.id), name: 'Acme Support' });
    // The check was Telegram's SRP: the password itself never went to Telegram.
    const checks = fake.calls.filter((c) => c._ === 'auth.checkPassword');
    expect(checks).toHaveLength(2);
    expect(JSON.stringify(checks)).not.toContain('horse');
    // The logged-in session is held by this process, under its lease.
    await eventually(async () => (t.gateway.sessions?.running().includes(id) ? true : undefined));
  });

  it('records what customers write and answers them: text, a quote, a file by its kind, edits and deletes both ways, reads', async () => {
    const hello = fake.customerWrites(anna.id, 'Здравствуйте! Где мой заказ?');
    const [inbound] = await eventually(async () => {
      const found = await added();
      return found.length > 0 ? found : undefined;
    });
    expect(inbound).toMatchObject({
      channel_id: channelId,
      direction: 'inbound',
      text: 'Здравствуйте! Где мой заказ?',
      recipient: { chat_type: 'telegram', chat_id: String(anna.id), username: 'anna_k', phone: anna.phone, name: 'Anna Kravets' },
    });

    const answer = await send({ recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, text: 'Уже в пути', quoted_message_id: inbound!.message_id });
    const sent = await settled(t, answer.request_id, ['sent', 'failed']);
    expect(sent.status).toBe('sent');
    expect(lastSent()).toMatchObject({ out: true, text: 'Уже в пути', replyTo: hello, peer: { _: 'peerUser', userId: anna.id } });
    const sentNumber = lastSent().id;

    const photo = await send({ recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, attachment: { url: `${filesUrl}/receipt.png`, name: 'receipt.png' } });
    expect((await settled(t, photo.request_id, ['sent', 'failed'])).status).toBe('sent');
    expect(lastSent().media).toMatchObject({ sentAs: 'inputMediaUploadedPhoto' });

    // A voice note a browser recorded as WebM goes as Telegram's voice note: Opus in Ogg.
    const voice = await send({ recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, attachment: { url: `${filesUrl}/voice-1.webm`, name: 'voice-1.webm' } });
    expect((await settled(t, voice.request_id, ['sent', 'failed'])).status).toBe('sent');
    const note = lastSent().media as unknown as { document: { mimeType: string }; sentAttributes: { _: string; voice?: boolean }[]; sentBytes: Buffer };
    expect(note.document.mimeType).toBe('audio/ogg');
    expect(note.sentAttributes).toContainEqual(expect.objectContaining({ _: 'documentAttributeAudio', voice: true }));
    expect(note.sentBytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(note.sentBytes.subarray(28, 36).toString('latin1')).toBe('OpusHead');

    const edit = await t.call('PATCH', `/v2/messages/${sent.id}`, { token, body: { text: 'Уже в пути, будет завтра' } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(fake.messages.get(sentNumber)!.text).toBe('Уже в пути, будет завтра');

    fake.read(anna.id, sentNumber);
    await eventually(async () => ((await statusTrail(t, answer.request_id)).includes('read') ? true : undefined));

    const removed = await t.call('DELETE', `/v2/messages/${sent.id}`, { token });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(fake.messages.get(sentNumber)!.deleted).toBe(true);

    // The customer changes and takes back a message; the account's owner writes from the phone.
    await stream.since();
    fake.edit(hello, 'Где мой заказ №42?');
    fake.remove(hello);
    fake.ownerWrites(anna.id, 'Проверю и напишу');
    const changes: Awaited<ReturnType<typeof stream.since>> = [];
    await eventually(async () => {
      changes.push(...(await stream.since()));
      return ['message.edit', 'message.delete', 'message.add'].every((name) => changes.some((e) => e.name === name)) ? true : undefined;
    });
    expect(changes.find((e) => e.name === 'message.edit')!.payload).toMatchObject({ message_id: inbound!.message_id, text: 'Где мой заказ №42?' });
    expect(changes.find((e) => e.name === 'message.delete')!.payload).toMatchObject({ message_id: inbound!.message_id });
    expect(changes.find((e) => e.name === 'message.add')!.payload).toMatchObject({ direction: 'outbound', text: 'Проверю и напишу', recipient: { chat_id: String(anna.id) } });
  });

  it('reacts to a customer’s message and shows the account typing, once each', async () => {
    fake.customerWrites(anna.id, 'Спасибо!');
    const [inbound] = await eventually(async () => {
      const found = await added();
      return found.length > 0 ? found : undefined;
    });
    const frame = await openFrame(t, token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const reacted = await t.call('PUT', `/bff/messages/${inbound!.message_id}/reaction`, { token: frame, body: { emoji: '👍' } });
    expect(reacted.statusCode, reacted.body).toBe(200);
    expect(fake.reactions.at(-1)!.reaction).toEqual([{ _: 'reactionEmoji', emoticon: '👍' }]);
    const chatRef = (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats.find((c: { chat_id: string }) => c.chat_id === String(anna.id)).chat_ref;
    expect((await t.call('POST', `/bff/chats/${chatRef}/typing`, { token: frame })).statusCode).toBe(204);
    expect(fake.typing).toEqual([{ _: 'peerUser', userId: anna.id }]);
  });

  it('finds a new customer by username or phone, and says when nobody has them', async () => {
    const byName = await send({ recipient: { chat_type: 'telegram', username: 'boris_b' }, text: 'Добрый день, Борис' });
    expect((await settled(t, byName.request_id, ['sent', 'failed'])).status).toBe('sent');
    expect(lastSent().peer).toEqual({ _: 'peerUser', userId: boris.id });
    const byPhone = await send({ recipient: { chat_type: 'telegram', phone: '79997778899' }, text: 'Добрый день, Вера' });
    expect((await settled(t, byPhone.request_id, ['sent', 'failed'])).status).toBe('sent');
    expect(lastSent().peer).toEqual({ _: 'peerUser', userId: vera.id });
    const chats = (await added()).filter((a) => a.direction === 'outbound').map((a) => (a.recipient as { chat_id: string }).chat_id);
    expect(chats).toEqual(expect.arrayContaining([String(boris.id), String(vera.id)]));

    for (const recipient of [{ chat_type: 'telegram', username: 'nobody_here' }, { chat_type: 'telegram', phone: '79000000000' }]) {
      const missing = await send({ recipient, text: 'Hello?' });
      expect(await settled(t, missing.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'contact_can_not_create' });
    }
    fake.failNext('messages.sendMessage', 'PRIVACY_PREMIUM_REQUIRED');
    const refused = await send({ recipient: { chat_type: 'telegram', chat_id: String(boris.id) }, text: 'Only premium?' });
    expect(await settled(t, refused.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'privacy_premium_required' });
  });

  it('waits as long as Telegram asks on a flood wait, then sends once', async () => {
    const before = fake.calls.filter((c) => c._ === 'messages.sendMessage').length;
    fake.failNext('messages.sendMessage', 'FLOOD_WAIT_3');
    const busy = await send({ recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, text: 'Ещё вопрос' });
    // Refused with FLOOD_WAIT_3: the message waits (still accepted, not failed) for as long as Telegram asked.
    const due = await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null; status: string }>`select send_after, status from messages where request_id = ${busy.request_id}`.execute(t.gateway.database.db);
      return rows[0]?.send_after ? rows[0] : undefined;
    });
    expect(due.status).toBe('accepted');
    expect(due.send_after!.getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(2_900);
    expect(fake.calls.filter((c) => c._ === 'messages.sendMessage').length - before).toBe(1);
    clock.advance(3_000);
    t.gateway.wakeSends();
    expect((await settled(t, busy.request_id, ['sent', 'failed'])).status).toBe('sent');
    expect(fake.calls.filter((c) => c._ === 'messages.sendMessage').length - before).toBe(2);
    // Both tries carry the random id of the send's request: Telegram would take a second one as the same message.
    const tries = fake.calls.filter((c) => c._ === 'messages.sendMessage').slice(-2);
    expect(tries.map((c) => String(c.randomId))).toEqual([String(await telegramRandomId(busy.request_id)), String(await telegramRandomId(busy.request_id))]);
    expect(await statusTrail(t, busy.request_id)).toEqual(['sent']);
  });

  it('records a send repeated after its answer was lost as sent, under the number Telegram gave it the first time', async () => {
    // Telegram makes the message, and its answer is lost on the way: the send waits for its next try.
    fake.loseAnswerOf('messages.sendMessage');
    const lost = await send({ recipient: { chat_type: 'telegram', chat_id: String(anna.id) }, text: 'Счёт отправлен' });
    const made = await eventually(async () => [...fake.messages.values()].find((m) => m.text === 'Счёт отправлен'));
    await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${lost.request_id}`.execute(t.gateway.database.db);
      return rows[0]?.send_after ? true : undefined;
    });
    // The next try carries the same random id: Telegram refuses it as RANDOM_ID_DUPLICATE, and the first message is the send's.
    clock.advance(60_000);
    t.gateway.wakeSends();
    const settledLost = await settled(t, lost.request_id, ['sent', 'failed']);
    expect(settledLost).toMatchObject({ status: 'sent' });
    const stored = await t.gateway.database.db.selectFrom('messages').select('messenger_message_id').where('request_id', '=', lost.request_id).executeTakeFirstOrThrow();
    expect(stored.messenger_message_id).toBe(String(made.id));
    expect([...fake.messages.values()].filter((m) => m.text === 'Счёт отправлен')).toHaveLength(1);
    const tries = fake.calls.filter((c) => c._ === 'messages.sendMessage' && c.message === 'Счёт отправлен');
    expect(tries.map((c) => String(c.randomId))).toEqual([String(await telegramRandomId(lost.request_id)), String(await telegramRandomId(lost.request_id))]);
    expect(await statusTrail(t, lost.request_id)).toEqual(['sent']);
  });

  it('records a group’s messages and its new members', async () => {
    fake.customerWrites(anna.id, 'Всем привет', { groupId: GROUP.id });
    fake.membersJoin(GROUP.id, anna.id, [boris.id]);
    const counted = async (name: string) => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from events where name = ${name} and payload->>'group_id' = ${String(-GROUP.id)}`.execute(t.gateway.database.db);
      return rows[0]!.n;
    };
    await eventually(async () => ((await counted('group_chat.memberships_update')) === 1 ? true : undefined));
    const groupAdds = (await added()).filter((a) => (a.recipient as { chat_type: string }).chat_type === 'telegroup');
    expect(groupAdds).toEqual([expect.objectContaining({ text: 'Всем привет', recipient: expect.objectContaining({ chat_id: String(-GROUP.id) }) })]);
    const reply = await send({ recipient: { chat_type: 'telegroup', chat_id: String(-GROUP.id) }, text: 'Здравствуйте!' });
    expect((await settled(t, reply.request_id, ['sent', 'failed'])).status).toBe('sent');
    expect(lastSent().peer).toEqual({ _: 'peerChat', chatId: GROUP.id });
  });

  it('records what customers wrote while the gateway was down once, after it starts again', async () => {
    await t.close();
    fake.disconnect();
    const missed = [fake.customerWrites(anna.id, 'Вы тут?'), fake.customerWrites(boris.id, 'Ответьте, пожалуйста')];
    ({ t } = await startLiveAt(database, ENV, { clock }, { tgapiClients: fake.clients }));
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, accountId);
    const texts = async () => {
      const { rows } = await sql<{ text: string }>`select text from messages where direction = 'inbound' and messenger_message_id = any(${missed.map(String)})`.execute(t.gateway.database.db);
      return rows.map((r) => r.text).sort();
    };
    await eventually(async () => ((await texts()).length === 2 ? true : undefined));
    expect(await texts()).toEqual(['Вы тут?', 'Ответьте, пожалуйста']);
    expect(fake.calls.filter((c) => c._ === 'updates.getDifference').length).toBeGreaterThan(0);
    // A new message after the restart arrives as usual, and nothing missed is recorded twice.
    fake.customerWrites(anna.id, 'Спасибо');
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from messages where text = 'Спасибо'`.execute(t.gateway.database.db);
      return rows[0]!.n === 1 ? true : undefined;
    });
    expect(await texts()).toEqual(['Вы тут?', 'Ответьте, пожалуйста']);
  });

  it('switches the channel off when the session is ended from the phone', async () => {
    fake.endSession();
    await eventually(async () => ((await api.get(channelId)).status === 'disabled' ? true : undefined));
    expect(await api.get(channelId)).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
  });
});
