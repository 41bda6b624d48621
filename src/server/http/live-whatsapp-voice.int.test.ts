import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { chromiumVoiceNote } from '../testing/voice-fixture.ts';
import { ANNA, NUMBER, connectWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup } from '../testing/whatsapp-fixture.ts';

/** A voice note recorded in a browser (WebM) through WhatsApp Business: Meta takes Ogg with Opus, uploaded. */
describe(`live whatsapp business: a voice note recorded as WebM (${databaseKind()})`, () => {
  let s: WhatsAppSetup;
  let channelId: string;
  let crm: Server;
  let crmUrl: string;

  beforeAll(async () => {
    crm = createServer((req, res) => {
      if (req.url === '/voice-1.webm') return void res.writeHead(200, { 'content-type': 'audio/webm' }).end(chromiumVoiceNote());
      if (req.url === '/not-opus.webm') return void res.writeHead(200, { 'content-type': 'audio/webm' }).end(Buffer.from('not a recording'));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
    // The CRM's files are on loopback here, which a gateway outside production may fetch from.
    s = await startWhatsAppSetup({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
    channelId = await connectWhatsAppChannel(s);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
    await new Promise((resolve) => crm?.close(resolve));
  });

  const send = async (attachment: Record<string, unknown>) => {
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: ANNA.waId }, attachment } });
    expect(res.statusCode, res.body).toBe(201);
    return (await settled(s.t, res.json().data.request_id, ['sent', 'failed'])).status;
  };
  const lastSend = () => s.meta.calls.filter((c) => c.method === 'POST' && c.path === `/${NUMBER.id}/messages`).at(-1)!.body;

  it('uploads its Opus moved into Ogg and sends the upload as audio', async () => {
    expect(await send({ url: `${crmUrl}/voice-1.webm`, name: 'voice-1.webm', mimetype: 'audio/webm' })).toBe('sent');
    const [id, upload] = [...s.meta.uploads.entries()].at(-1)!;
    expect([upload.phoneNumberId, upload.mimeType, upload.name]).toEqual([NUMBER.id, 'audio/ogg', 'voice-1.ogg']);
    expect(upload.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(upload.bytes.subarray(28, 36).toString('latin1')).toBe('OpusHead');
    expect(lastSend()).toMatchObject({ type: 'audio', audio: { id } });
  });

  it('sends a WebM that is not Opus by its link, as any other file', async () => {
    const uploads = s.meta.uploads.size;
    await send({ url: `${crmUrl}/not-opus.webm`, name: 'clip.webm', mimetype: 'audio/webm' });
    expect(s.meta.uploads.size).toBe(uploads);
    expect(lastSend()).toMatchObject({ type: 'document', document: { link: `${crmUrl}/not-opus.webm` } });
  });
});
