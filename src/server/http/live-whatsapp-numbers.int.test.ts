import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { NUMBER, WABA_ID, connectWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup } from '../testing/whatsapp-fixture.ts';

/** Customers whose WhatsApp id is not the number the CRM writes: Meta answers a send with the id it knows them by. */
describe(`live whatsapp: a customer’s WhatsApp id that is not the number written (${databaseKind()})`, () => {
  let s: WhatsAppSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startWhatsAppSetup();
    channelId = await connectWhatsAppChannel(s);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const send = async (chatId: string, text: string) => {
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: chatId }, text } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ chat_id: chatId });
    const { request_id: requestId } = res.json().data as { request_id: string };
    expect(await settled(s.t, requestId, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const { rows } = await sql<{ wamid: string }>`select messenger_message_id as wamid from messages where request_id = ${requestId}`.execute(s.t.gateway.database.db);
    return { requestId, wamid: rows[0]!.wamid };
  };
  const chatIds = async () =>
    (await sql<{ chat_id: string }>`select chat_id from chats where channel_id = ${channelId}`.execute(s.t.gateway.database.db)).rows.map((r) => r.chat_id).sort();
  const chatOf = async (requestId: string) =>
    (await sql<{ chat_id: string }>`select c.chat_id from messages m join chats c on c.id = m.chat_ref where m.request_id = ${requestId}`.execute(s.t.gateway.database.db)).rows[0]?.chat_id;
  const lastSentTo = () => s.meta.calls.filter((c) => c.method === 'POST' && c.path === `/${NUMBER.id}/messages`).at(-1)!.body.to;

  /** The customer answers from their WhatsApp id, Meta reports the send delivered and read: all in the CRM's chat. */
  async function answersLandIn(chatId: string, waId: string, sent: { requestId: string; wamid: string }) {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    expect((await s.meta.customerWrites(WABA_ID, NUMBER.id, { waId, name: 'Cliente' }, { type: 'text', text: { body: 'Obrigado!' } })).status).toBe(200);
    expect(await s.meta.status(WABA_ID, NUMBER.id, sent.wamid, 'delivered')).toBe(200);
    expect(await s.meta.status(WABA_ID, NUMBER.id, sent.wamid, 'read')).toBe(200);
    const added = (await stream.since()).filter((e) => e.name === 'message.add');
    expect(added.map((e) => e.payload)).toEqual([expect.objectContaining({ direction: 'inbound', text: 'Obrigado!', recipient: expect.objectContaining({ chat_id: chatId }) })]);
    expect(await statusTrail(s.t, sent.requestId)).toEqual(['sent', 'delivered', 'read']);
  }

  it('keeps a Brazilian customer in the CRM’s chat when Meta knows them by the number without the ninth digit', async () => {
    const sent = await send('5511987654321', 'Seu pedido está pronto');
    expect(s.meta.sent.get(sent.wamid)!.waId).toBe('551187654321');
    await answersLandIn('5511987654321', '551187654321', sent);
    // The next send to the CRM's chat goes as the CRM wrote it, and what comes back still lands there.
    const again = await send('5511987654321', 'Até amanhã');
    await answersLandIn('5511987654321', '551187654321', again);
    expect(await chatIds()).toEqual(['5511987654321']);
  });

  it('remembers a WhatsApp id no rule of numbers foresees (an Argentine mobile, Meta’s 9 after 54): Meta’s answer decides', async () => {
    const sent = await send('541151234567', 'Su pedido está listo');
    expect(s.meta.sent.get(sent.wamid)!.waId).toBe('5491151234567');
    await answersLandIn('541151234567', '5491151234567', sent);
    expect(await chatIds()).toEqual(['541151234567', '5511987654321'].sort());
    // The CRM then writes to the WhatsApp id itself: the chat it wrote to last is where the answers go from now on.
    const direct = await send('5491151234567', 'Le escribo por aquí');
    await answersLandIn('5491151234567', '5491151234567', direct);
    // And back: a send to the first form takes them again.
    const back = await send('541151234567', 'Y por aquí');
    await answersLandIn('541151234567', '5491151234567', back);
  });

  it('sends to the chat a customer opened from their WhatsApp id when the CRM writes the other form of the same mobile', async () => {
    await s.meta.customerWrites(WABA_ID, NUMBER.id, { waId: '5215512345678', name: 'Lupita' }, { type: 'text', text: { body: 'Hola' } });
    const sent = await send('525512345678', 'Hola, Lupita');
    // Sent to the WhatsApp id the customer wrote from, recorded in their chat (the answer echoes what the CRM wrote).
    expect(lastSentTo()).toBe('5215512345678');
    expect(await chatOf(sent.requestId)).toBe('5215512345678');
    await answersLandIn('5215512345678', '5215512345678', sent);
    expect(await chatIds()).toEqual(['5215512345678', '541151234567', '5491151234567', '5511987654321'].sort());
  });

  it('never takes two people for one: a Brazilian landline and the number with a 9 before it are two chats', async () => {
    await s.meta.customerWrites(WABA_ID, NUMBER.id, { waId: '551132345678', name: 'Loja' }, { type: 'text', text: { body: 'Oi' } });
    await send('5511932345678', 'Olá');
    expect(lastSentTo()).toBe('5511932345678');
    expect(await chatIds()).toEqual(['551132345678', '5511932345678', '5215512345678', '541151234567', '5491151234567', '5511987654321'].sort());
  });
});
