import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { settled, TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { databaseKind } from '../testing/test-database.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** An .xlsx is a ZIP: its bytes begin so, and hold every byte value (a part that mangled them would show). */
const invoice = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('\r\n--not-a-boundary--\r\n')]);

describe(`live telegram bots: files a CRM sends (${databaseKind()})`, () => {
  let telegram: TelegramEmulator;
  let t: TestGateway;
  let crm: Server;
  let files: string;
  let token: string;
  let channelId: string;
  const fetched: string[] = [];

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    // The CRM's file server, on loopback (which a gateway outside production may fetch from, WEBHOOK_ALLOW_LOOPBACK).
    crm = createServer((req, res) => {
      fetched.push(req.url ?? '');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/files/invoice-42') return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': invoice.length }).end(invoice);
      if (path === '/files/receipt.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end('JPEG bytes of a receipt');
      if (path === '/files/offer.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 the offer');
      if (path === '/files/poster.png') {
        // Larger than Telegram takes as a photo (10 MB), well under what it takes as a document (50 MB).
        const size = 10_000_001;
        return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': size }).end(Buffer.alloc(size, 7));
      }
      if (path === '/files/backup.zip') {
        // Says it is 60 MB: refused by its length, before anything is read or sent.
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': 60_000_000 });
        return void res.write(Buffer.alloc(1024));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    files = `http://127.0.0.1:${(crm.address() as AddressInfo).port}/files`;
    t = await startTestGateway({ env: { TRANSPORT_MODE: 'live', TELEGRAM_API_URL: telegram.url, SECRET_KEY: 'k'.repeat(40) } });
    ({ token } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
  });
  afterAll(async () => {
    await t?.close();
    await telegram?.close();
    crm?.closeAllConnections();
    await new Promise((resolve) => crm?.close(resolve));
  });

  const to = { chat_type: 'telegram', chat_id: '4242' };
  const send = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: to, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    const { request_id } = res.json().data as { request_id: string };
    return settled(t, request_id, ['sent', 'failed']);
  };
  const callsOf = (method: string) => telegram.calls.filter((c) => c.method === method);
  const sends = () => telegram.calls.filter((c) => c.method.startsWith('send')).length;

  it('uploads an .xlsx invoice (Telegram would fetch only GIF, PDF or ZIP documents by URL) with its name and bytes intact', async () => {
    // A quote of the gateway's own message (a customer's would do as well: either is Telegram's number in the chat).
    const asked = await send({ text: 'Счёт ниже' });
    const quoted = (await sql<{ n: string }>`select messenger_message_id as n from messages where id = ${asked.id}`.execute(t.gateway.database.db)).rows[0]!.n;
    const keyboard = { buttons: [[{ text: 'Оплатить', url: 'https://pay.example.com/42' }]] };
    const sent = await send({ attachment: { url: `${files}/invoice-42`, name: 'Счёт №42.xlsx', mimetype: XLSX }, keyboard, quoted_message_id: asked.id });
    expect(sent.status).toBe('sent');
    const call = callsOf('sendDocument').at(-1)!;
    expect(call.params).toEqual({
      chat_id: '4242',
      reply_parameters: { message_id: Number(quoted), allow_sending_without_reply: true },
      reply_markup: { inline_keyboard: [[{ text: 'Оплатить', url: 'https://pay.example.com/42' }]] },
    });
    expect(call.files?.document).toEqual({ name: 'Счёт №42.xlsx', type: XLSX, bytes: invoice });
  });

  it('uploads a photo as a photo, named by its address, and one larger than Telegram takes as a photo as a document', async () => {
    expect(await send({ attachment: { url: `${files}/receipt.jpg` } })).toMatchObject({ status: 'sent' });
    const photo = callsOf('sendPhoto').at(-1)!;
    expect(photo.params).toEqual({ chat_id: '4242' });
    expect(photo.files?.photo).toEqual({ name: 'receipt.jpg', type: 'image/jpeg', bytes: Buffer.from('JPEG bytes of a receipt') });

    expect(await send({ attachment: { url: `${files}/poster.png`, mimetype: 'image/png' } })).toMatchObject({ status: 'sent' });
    const poster = callsOf('sendDocument').at(-1)!.files?.document;
    expect([poster?.name, poster?.type, poster?.bytes.length]).toEqual(['poster.png', 'image/png', 10_000_001]);
  });

  it('sends a picture Telegram refuses as a photo again as a document', async () => {
    telegram.failNext('sendPhoto', 1, 400, 1, 'Bad Request: PHOTO_INVALID_DIMENSIONS');
    expect(await send({ attachment: { url: `${files}/receipt.jpg` } })).toMatchObject({ status: 'sent' });
    expect(callsOf('sendDocument').at(-1)!.files?.document).toMatchObject({ name: 'receipt.jpg', type: 'image/jpeg' });
  });

  it('replaces a file in an edit with editMessageMedia, the new file attached to the form', async () => {
    const sent = await send({ attachment: { url: `${files}/receipt.jpg` }, keyboard: { buttons: [[{ text: 'Отследить', url: 'https://track.example.com/42' }]] } });
    const edited = await t.call('PATCH', `/v2/messages/${sent.id}`, { token, body: { attachment: { url: `${files}/offer.pdf`, name: 'Оферта.pdf' } } });
    expect(edited.statusCode, edited.body).toBe(200);
    const call = callsOf('editMessageMedia').at(-1)!;
    expect(call.params).toEqual({
      chat_id: '4242',
      message_id: expect.stringMatching(/^\d+$/),
      reply_markup: { inline_keyboard: [[{ text: 'Отследить', url: 'https://track.example.com/42' }]] },
      media: { type: 'document', media: 'attach://file' },
    });
    expect(call.files?.file).toEqual({ name: 'Оферта.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.7 the offer') });
    // An address the gateway may not fetch from is refused on its field, and Telegram is not asked.
    const before = callsOf('editMessageMedia').length;
    const refused = await t.call('PATCH', `/v2/messages/${sent.id}`, { token, body: { attachment: { url: 'http://10.0.0.1/offer.pdf' } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.fields[0]).toMatchObject({ field: 'attachment.url' });
    expect(callsOf('editMessageMedia')).toHaveLength(before);
  });

  it('fails a file over Telegram’s 50 MB as bad content, without sending it', async () => {
    const before = sends();
    expect(await send({ attachment: { url: `${files}/backup.zip` } })).toMatchObject({ status: 'failed', reason: 'bad_content' });
    expect(sends()).toBe(before);
  });

  it('refuses a file at an address inside the gateway’s network, or not there, as content it could not get', async () => {
    const before = sends();
    for (const url of ['http://10.0.0.1/offer.pdf', 'http://169.254.169.254/latest/meta-data', `${files}/gone.pdf`]) {
      expect(await send({ attachment: { url } }), url).toMatchObject({ status: 'failed', reason: 'can_not_get_content' });
    }
    expect(sends()).toBe(before);
    expect(fetched.filter((u) => u.includes('gone'))).toHaveLength(1);
  });
});
