import { sql } from 'kysely';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { settled, TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { databaseKind } from '../testing/test-database.ts';

const anna = { id: 4242, is_bot: false, first_name: 'Anna', last_name: 'Kravets', username: 'anna_k' };
const oleg = { id: 4343, is_bot: false, first_name: 'Oleg' };
const date = 1_795_000_000;
const inPrivate = (messageId: number, fields: Record<string, unknown>) => ({ message_id: messageId, date, chat: { id: 4242, type: 'private' }, from: anna, ...fields });

describe(`live telegram bots: what customers do beyond new messages (${databaseKind()})`, () => {
  let telegram: TelegramEmulator;
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;
  let updateId = 1;

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    ({ t } = await startLiveGateway({ TELEGRAM_API_URL: telegram.url, SECRET_KEY: 'k'.repeat(40) }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
  });
  afterAll(async () => {
    await t?.close();
    await telegram?.close();
  });

  const write = (message: Record<string, unknown>) => telegram.deliver(TELEGRAM_TOKEN, { update_id: updateId++, message });
  const send = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return settled(t, (res.json().data as { request_id: string }).request_id, ['sent', 'failed']);
  };
  const callsOf = (method: string) => telegram.calls.filter((c) => c.method === method);
  const messageNumbered = async (messengerMessageId: string) =>
    (await sql<{ id: string; text: string | null; edited_at: Date | null; chat_ref: string }>`
      select id, text, edited_at, chat_ref from messages where channel_id = ${channelId} and messenger_message_id = ${messengerMessageId}`.execute(t.gateway.database.db)).rows;
  const chatsOf = async (chatType: string) =>
    (await sql<{ id: string; chat_id: string }>`select id, chat_id from chats where channel_id = ${channelId} and chat_type = ${chatType} order by chat_id`.execute(t.gateway.database.db)).rows;

  it('asks Telegram for edits and button presses besides messages', () => {
    expect(callsOf('setWebhook').at(-1)!.params.allowed_updates).toEqual(['message', 'edited_message', 'callback_query', 'message_reaction']);
  });

  it('records a customer’s edit, however long ago the message came, as message.edit, and the frame shows it edited', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    expect(await write(inPrivate(7, { text: 'Где мой заказ?' }))).toBe(200);
    const [added] = (await stream.since()).filter((e) => e.name === 'message.add');
    const messageId = (added!.payload as { message_id: string }).message_id;
    // Sixty more: the first is no longer among the chat's latest fifty.
    for (let n = 0; n < 60; n++) expect(await write(inPrivate(8 + n, { text: `и ещё ${n}` }))).toBe(200);
    await stream.since();
    // Sent again that late, the first message is still found: nothing recorded twice.
    expect(await write(inPrivate(7, { text: 'Где мой заказ?' }))).toBe(200);
    expect(await stream.since()).toEqual([]);

    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(7, { text: 'Где мой заказ №42?' }))).toBe(200);
    const edits = (await stream.since()).filter((e) => e.name === 'message.edit');
    expect(edits.map((e) => e.payload)).toEqual([{ message_id: messageId, crm_user_id: null, timestamp: expect.any(Number), text: 'Где мой заказ №42?', old_text: 'Где мой заказ?' }]);
    const [stored] = await messageNumbered('7');
    expect(stored).toMatchObject({ id: messageId, text: 'Где мой заказ №42?', edited_at: expect.any(Date) });
    // The frame reads the edited mark and the words from the same record.
    const frame = await openFrame(t, token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    const history = await t.call('GET', `/bff/chats/${stored!.chat_ref}/messages?around=${messageId}`, { token: frame });
    expect(history.statusCode, history.body).toBe(200);
    const shown = (history.json().data.messages as { message_id: string; text: string; edited_at: string | null }[]).find((m) => m.message_id === messageId);
    expect(shown).toMatchObject({ text: 'Где мой заказ №42?', edited_at: expect.any(String) });

    // An edit of a message never recorded (a sticker's), or one that changes nothing recorded: taken, nothing changes.
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(999, { text: 'never seen' }))).toBe(200);
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(7, { text: 'Где мой заказ №42?' }))).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('records a new caption as an edit of the caption’s message, and leaves the file as it was', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    telegram.addFile('receipt', Buffer.from('JPEG'), 'image/jpeg');
    const photo = { photo: [{ file_id: 'receipt', file_unique_id: 'AQADreceipt', file_size: 4, width: 90, height: 90 }] };
    expect(await write(inPrivate(80, { ...photo, caption: 'Чек' }))).toBe(200);
    await stream.since();
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(80, { ...photo, caption: 'Чек за май' }))).toBe(200);
    const [caption] = await messageNumbered('80:caption');
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: caption!.id, crm_user_id: null, timestamp: expect.any(Number), text: 'Чек за май', old_text: 'Чек' }],
    ]);
    expect((await messageNumbered('80'))[0]).toMatchObject({ text: null, edited_at: null });
  });

  it('records a caption given to a file that had none as the caption’s message, and one taken away as its words emptied', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    telegram.addFile('invoice', Buffer.from('JPEG'), 'image/jpeg');
    const photo = { photo: [{ file_id: 'invoice', file_unique_id: 'AQADinvoice', file_size: 4, width: 90, height: 90 }] };
    await stream.since();
    expect(await write(inPrivate(81, photo))).toBe(200);
    const [file] = (await stream.since()).map((e) => e.payload as { message_id: string; attachment: { url: string } });
    expect(file!.attachment.url).toContain('file_unique_id=AQADinvoice&signature=');

    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(81, { ...photo, caption: 'Счёт за май' }))).toBe(200);
    const [caption] = await messageNumbered('81:caption');
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      [
        'message.add',
        expect.objectContaining({ message_id: caption!.id, direction: 'inbound', text: 'Счёт за май', recipient: expect.objectContaining({ chat_type: 'telegram', chat_id: '4242' }) }),
      ],
    ]);
    // Taken away, then given again: the same message's words.
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(81, photo))).toBe(200);
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(81, { ...photo, caption: 'Счёт за июнь' }))).toBe(200);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['message.edit', { message_id: caption!.id, crm_user_id: null, timestamp: expect.any(Number), text: '', old_text: 'Счёт за май' }],
      ['message.edit', { message_id: caption!.id, crm_user_id: null, timestamp: expect.any(Number), text: 'Счёт за июнь', old_text: '' }],
    ]);
    expect(await messageNumbered('81:caption')).toHaveLength(1);

    // Telegram gives the same file another file_id: not a new file. Another file (another file_unique_id) is.
    telegram.addFile('invoice-2', Buffer.from('JPEG 2'), 'image/jpeg');
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(81, { photo: [{ file_id: 'invoice-reissued', file_unique_id: 'AQADinvoice', width: 90, height: 90 }], caption: 'Счёт за июнь' }))).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(81, { photo: [{ file_id: 'invoice-2', file_unique_id: 'AQADinvoice2', width: 90, height: 90 }], caption: 'Счёт за июнь' }))).toBe(200);
    const [replaced] = (await stream.since()).map((e) => [e.name, e.payload] as const);
    expect(replaced).toEqual(['message.edit', expect.objectContaining({ message_id: file!.message_id, old_attachment: file!.attachment, attachment: expect.objectContaining({ url: expect.stringContaining('/files/invoice-2?file_unique_id=AQADinvoice2&') }) })]);

    // A caption given to a file never recorded: nothing arrives.
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(82, { ...photo, caption: 'never seen' }))).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('answers a button press and records it as the button’s text from the presser, answering the message, once', async () => {
    const offer = await send({
      recipient: { chat_type: 'telegram', chat_id: '4242' },
      text: 'Подтвердить заказ?',
      keyboard: { reply_markup: 'inline', buttons: [[{ text: 'Да', callback_data: 'order:yes' }, { text: 'Нет', callback_data: 'order:no' }]] },
    });
    expect(offer.status).toBe('sent');
    const [sent] = (await sql<{ messenger_message_id: string }>`select messenger_message_id from messages where id = ${offer.id}`.execute(t.gateway.database.db)).rows;
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();

    const { status, queryId } = await telegram.pressButton(TELEGRAM_TOKEN, { from: anna, messageId: Number(sent!.messenger_message_id), data: 'order:no' });
    expect(status).toBe(200);
    expect(callsOf('answerCallbackQuery').at(-1)!.params).toEqual({ callback_query_id: queryId });
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload);
    expect(added).toEqual([
      expect.objectContaining({ direction: 'inbound', text: 'Нет', quoted_message_id: offer.id, recipient: expect.objectContaining({ chat_type: 'telegram', chat_id: '4242', username: 'anna_k' }) }),
    ]);

    // The same press again (Telegram did not get the answer): answered again, recorded once.
    const again = { update_id: updateId++, callback_query: { id: queryId, from: anna, message: { message_id: Number(sent!.messenger_message_id), date: 0, chat: { id: 4242, type: 'private' } }, chat_instance: '1', data: 'order:no' } };
    const answers = callsOf('answerCallbackQuery').length;
    expect(await telegram.deliver(TELEGRAM_TOKEN, again)).toBe(200);
    expect(callsOf('answerCallbackQuery')).toHaveLength(answers + 1);
    expect(await stream.since()).toEqual([]);

    // A press on a message older than Telegram keeps: recorded with the button's data.
    const old = await telegram.pressButton(TELEGRAM_TOKEN, { from: anna, messageId: Number(sent!.messenger_message_id), data: 'order:yes', old: true });
    expect(old.status).toBe(200);
    expect((await stream.since()).map((e) => e.payload)).toEqual([expect.objectContaining({ text: 'order:yes', quoted_message_id: offer.id })]);
    expect(callsOf('answerCallbackQuery').at(-1)!.params).toEqual({ callback_query_id: old.queryId });
  });

  it('leaves a press for a channel switched off unanswered, for Telegram to send again: a 503 names no method', async () => {
    const hook = telegram.webhookOf(TELEGRAM_TOKEN)!;
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const answers = callsOf('answerCallbackQuery').length;
    await sql`update channels set status = 'disabled', reason = 'unauthorized' where id = ${channelId}`.execute(t.gateway.database.db);
    try {
      const press = { update_id: updateId++, callback_query: { id: 'late-1', from: anna, message: { message_id: 120, date: 0, chat: { id: 4242, type: 'private' } }, chat_instance: '1', data: 'order:yes' } };
      const res = await request(hook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': hook.secret! }, body: JSON.stringify(press) });
      const body = (await res.body.json()) as Record<string, unknown>;
      expect(res.statusCode).toBe(503);
      expect(body).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
      expect(body).not.toHaveProperty('method');
    } finally {
      await sql`update channels set status = 'active', reason = null where id = ${channelId}`.execute(t.gateway.database.db);
    }
    expect(callsOf('answerCallbackQuery')).toHaveLength(answers);
    expect(await stream.since()).toEqual([]);
  });

  it('follows a group that became a supergroup: the chat keeps its history under the new id, and the CRM is told', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    const group = { id: -555, title: 'Acme buyers' };
    expect(await write({ message_id: 3, date, chat: { ...group, type: 'group' }, from: anna, text: 'Всем привет' })).toBe(200);
    await stream.since();
    const [before] = await chatsOf('telegroup');
    expect(before).toMatchObject({ chat_id: '-555' });

    expect(await telegram.upgradeGroup(TELEGRAM_TOKEN, group, -100555, anna)).toEqual([200, 200]);
    expect(await chatsOf('telegroup')).toEqual([{ id: before!.id, chat_id: '-100555' }]);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([['group_chat.update', { group_id: '-100555', name: 'Acme buyers', avatar_url: null, old_group_id: '-555' }]]);

    // What comes from the supergroup lands in the same chat, and the CRM gets its new chat_id with it.
    expect(await write({ message_id: 4, date, chat: { id: -100555, type: 'supergroup', title: 'Acme buyers' }, from: oleg, text: 'А я новенький' })).toBe(200);
    const [added] = (await stream.since()).map((e) => e.payload as { recipient: { chat_id: string } });
    expect(added!.recipient).toMatchObject({ chat_type: 'telegroup', chat_id: '-100555' });
    expect(await chatsOf('telegroup')).toEqual([{ id: before!.id, chat_id: '-100555' }]);
    // The old group's message keeps its number, as the old group's.
    expect((await messageNumbered('-555/3'))[0]).toMatchObject({ chat_ref: before!.id, text: 'Всем привет' });
  });

  it('numbers the supergroup’s messages afresh: the old group’s numbers name its own messages, never the supergroup’s', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    const group = { id: -999, title: 'Numbers' };
    const supergroup = { id: -100999, type: 'supergroup', title: 'Numbers' };
    await stream.since();
    expect(await write({ message_id: 2, date, chat: { ...group, type: 'group' }, from: anna, text: 'Второе в группе' })).toBe(200);
    const ours = await send({ recipient: { chat_type: 'telegroup', chat_id: '-999' }, text: 'Ответ в группу' });
    const [{ messenger_message_id: oursNumber } = { messenger_message_id: '' }] = (
      await sql<{ messenger_message_id: string }>`select messenger_message_id from messages where id = ${ours.id}`.execute(t.gateway.database.db)
    ).rows;
    const [old] = await messageNumbered('2');
    expect(await telegram.upgradeGroup(TELEGRAM_TOKEN, group, -100999, anna)).toEqual([200, 200]);
    expect((await stream.since()).filter((e) => e.name === 'group_chat.update').map((e) => e.payload)).toEqual([
      { group_id: '-100999', name: 'Numbers', avatar_url: null, old_group_id: '-999' },
    ]);
    expect((await messageNumbered('-999/2')).map((m) => m.id)).toEqual([old!.id]);
    expect(await messageNumbered(`-999/${oursNumber}`)).toHaveLength(1);

    // The supergroup's message 2, and one numbered as our reply in the group was, are new messages, not sent again.
    expect(await write({ message_id: 2, date, chat: supergroup, from: oleg, text: 'Второе в супергруппе' })).toBe(200);
    expect(await write({ message_id: Number(oursNumber), date, chat: supergroup, from: oleg, text: 'Под тем же номером' })).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add').map((e) => e.payload as { message_id: string; text: string });
    expect(added.map((p) => p.text)).toEqual(['Второе в супергруппе', 'Под тем же номером']);

    // An edit of the supergroup's message 2 changes it, not the old group's.
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, { message_id: 2, chat: supergroup, from: oleg, text: 'Второе, исправлено' })).toBe(200);
    expect((await stream.since()).map((e) => [e.name, (e.payload as { message_id: string }).message_id])).toEqual([['message.edit', added[0]!.message_id]]);
    expect((await messageNumbered('-999/2'))[0]).toMatchObject({ id: old!.id, text: 'Второе в группе', edited_at: null });

    // Our reply in the old group: Telegram would change the supergroup's message under its number, so it is refused.
    const edited = telegram.calls.length;
    const edit = await t.call('PATCH', `/v2/messages/${ours.id}`, { token, body: { text: 'Исправленный ответ' } });
    expect([edit.statusCode, edit.json().error]).toEqual([400, 'MESSAGES_EDITING_TIME_EXPIRED']);
    const removal = await t.call('DELETE', `/v2/messages/${ours.id}`, { token });
    expect([removal.statusCode, removal.json().error]).toEqual([400, 'MESSAGES_EDITING_TIME_EXPIRED']);
    expect(telegram.calls.slice(edited).map((c) => c.method)).toEqual([]);
    // A quote of it goes without reply_parameters: its number would quote the supergroup's message.
    const quoting = await send({ recipient: { chat_type: 'telegroup', chat_id: '-100999' }, text: 'Со ссылкой на старое', quoted_message_id: ours.id });
    expect(quoting.status).toBe('sent');
    const quoted = callsOf('sendMessage').at(-1)!.params;
    expect(quoted).toMatchObject({ chat_id: '-100999', text: 'Со ссылкой на старое' });
    expect(quoted).not.toHaveProperty('reply_parameters');
    expect(await stream.since()).not.toContainEqual(expect.objectContaining({ name: 'message.edit' }));
  });

  it('sends to the supergroup when Telegram refuses the group’s old id, and the chat follows', async () => {
    const group = { id: -777, title: 'Wholesale' };
    expect(await write({ message_id: 5, date, chat: { ...group, type: 'group' }, from: anna, text: 'Есть опт?' })).toBe(200);
    const [chat] = (await chatsOf('telegroup')).filter((c) => c.chat_id === '-777');
    // The service messages have not come yet (or were lost): only the refused send says so.
    await telegram.upgradeGroup(TELEGRAM_TOKEN, group, -100777, anna, { posted: false });
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const reply = await send({ recipient: { chat_type: 'telegroup', chat_id: '-777' }, text: 'Да, от 10 штук' });
    expect(reply.status).toBe('sent');
    expect(callsOf('sendMessage').slice(-2).map((c) => c.params.chat_id)).toEqual(['-777', '-100777']);
    expect((await chatsOf('telegroup')).find((c) => c.id === chat!.id)).toEqual({ id: chat!.id, chat_id: '-100777' });
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['group_chat.update', { group_id: '-100777', name: 'Wholesale', avatar_url: null, old_group_id: '-777' }],
      ['message.status_update', expect.objectContaining({ message_id: reply.id, status: 'sent' })],
    ]);
  });

  it('keeps both chats when the supergroup’s updates came first, and still reaches it from the old one', async () => {
    const group = { id: -888, title: 'Retail' };
    expect(await write({ message_id: 6, date, chat: { ...group, type: 'group' }, from: anna, text: 'Старая группа' })).toBe(200);
    expect(await write({ message_id: 1, date, chat: { id: -100888, type: 'supergroup', title: 'Retail' }, from: oleg, text: 'Новая группа' })).toBe(200);
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await telegram.upgradeGroup(TELEGRAM_TOKEN, group, -100888, anna)).toEqual([200, 200]);
    expect((await chatsOf('telegroup')).filter((c) => c.chat_id.endsWith('888')).map((c) => c.chat_id)).toEqual(['-100888', '-888']);
    expect(await stream.since()).toEqual([]);
    const reply = await send({ recipient: { chat_type: 'telegroup', chat_id: '-888' }, text: 'Ответ в старую' });
    expect(reply.status).toBe('sent');
    expect(callsOf('sendMessage').at(-1)!.params.chat_id).toBe('-100888');
    expect((await chatsOf('telegroup')).filter((c) => c.chat_id.endsWith('888')).map((c) => c.chat_id)).toEqual(['-100888', '-888']);
  });

  it('records a press in a group as the presser’s words in the group, answering the message the button is on', async () => {
    expect(await write({ message_id: 40, date, chat: { id: -100444, type: 'supergroup', title: 'Orders' }, from: oleg, text: 'Кто принимает заказ?' })).toBe(200);
    const offer = await send({
      recipient: { chat_type: 'telegroup', chat_id: '-100444' },
      text: 'Заказ принят. Доставить завтра?',
      keyboard: { reply_markup: 'inline', buttons: [[{ text: 'Завтра', callback_data: 'when:tomorrow' }]] },
    });
    expect(offer.status).toBe('sent');
    const [sent] = (await sql<{ messenger_message_id: string }>`select messenger_message_id from messages where id = ${offer.id}`.execute(t.gateway.database.db)).rows;
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const { status, queryId } = await telegram.pressButton(TELEGRAM_TOKEN, { from: oleg, messageId: Number(sent!.messenger_message_id), data: 'when:tomorrow' });
    expect(status).toBe(200);
    expect(callsOf('answerCallbackQuery').at(-1)!.params).toEqual({ callback_query_id: queryId });
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      [
        'message.add',
        expect.objectContaining({ direction: 'inbound', text: 'Завтра', quoted_message_id: offer.id, recipient: expect.objectContaining({ chat_type: 'telegroup', chat_id: '-100444' }) }),
      ],
    ]);
  });

  it('records a message holding NUL characters with U+FFFD in their place, rather than failing until Telegram gives up', async () => {
    // A customer new to the bot, so that the chat takes the name given here.
    const nina = { id: 4646, is_bot: false, first_name: 'Ni\u0000na' };
    expect(await write({ message_id: 900, date, chat: { id: 4646, type: 'private' }, from: nina, text: 'до\u0000после' })).toBe(200);
    expect((await messageNumbered('900')).map((m) => m.text)).toEqual(['до\uFFFDпосле']);
    const named = await sql<{ name: string }>`select name from chats where channel_id = ${channelId} and chat_id = '4646'`.execute(t.gateway.database.db);
    expect(named.rows.map((r) => r.name)).toEqual(['Ni\uFFFDna']);
  });

  it('keeps the latest of a customer’s edits when an earlier one arrives after it (Telegram resends after a failure)', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    expect(await write(inPrivate(950, { text: 'Доставка в пятницу?' }))).toBe(200);
    await stream.since();
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(950, { text: 'Доставка в субботу?', edit_date: date + 200 }))).toBe(200);
    expect(await telegram.customerEdits(TELEGRAM_TOKEN, inPrivate(950, { text: 'Доставка в четверг?', edit_date: date + 100 }))).toBe(200);
    expect((await messageNumbered('950')).map((m) => [m.text, m.edited_at?.getTime()])).toEqual([['Доставка в субботу?', (date + 200) * 1000]]);
    expect((await stream.since()).filter((e) => e.name === 'message.edit').map((e) => (e.payload as { text: string }).text)).toEqual(['Доставка в субботу?']);
  });
});
