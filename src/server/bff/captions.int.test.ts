import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePage } from '../../contract/bff-chats.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const photo = { url: 'https://files.example/sofa.png', name: 'sofa.png', mimetype: 'image/png' };
const note = { url: 'https://files.example/voice-1.ogg', name: 'voice-1.ogg', mimetype: 'audio/ogg' };

/** A file and its caption from the chat frame, and a customer's, as one message where the messenger has captions. */
describe(`files with captions in the chat frame (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;
  let frame: string;
  let whatsapp: string;
  let maxPersonal: string;

  beforeAll(async () => {
    t = await startTestGateway();
    const a = await t.newAccount('A');
    token = a.token;
    whatsapp = await activeChannel(t, channelClient(t, token), 'whatsapp');
    maxPersonal = await activeChannel(t, channelClient(t, token), 'max');
    frame = await openFrame(t, token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
  });
  afterAll(() => t.close());

  const send = (channelId: string, chatId: string, body: Record<string, unknown>) =>
    t.call('POST', '/bff/messages', { token: frame, body: { channel_id: channelId, recipient: { chat_type: channelId === maxPersonal ? 'max' : 'whatsapp', chat_id: chatId }, ...body } });
  /** The message a send made, once the sandbox delivered it. */
  const delivered = async (requestId: string) => {
    const { id } = await settled(t, requestId);
    return t.gateway.database.db.selectFrom('messages').select(['text', 'attachment', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
  };
  const history = async (chatId: string) => {
    const chats = (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats as { chat_id: string; chat_ref: string }[];
    const ref = chats.find((c) => c.chat_id === chatId)!.chat_ref;
    return ((await t.call('GET', `/bff/chats/${ref}/messages`, { token: frame })).json().data as MessagePage).messages;
  };

  it('sends a photo with its words as one message where WhatsApp shows a caption; the API still takes one of them', async () => {
    const res = await send(whatsapp, '79001230001', { attachment: photo, text: 'our new sofa' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.caption_request_id).toBeUndefined();
    const sent = await delivered(res.json().data.request_id);
    expect([sent.status, sent.text, (sent.attachment as { name?: string } | null)?.name]).toEqual(['delivered', 'our new sofa', 'sofa.png']);
    expect((await history('79001230001')).map((m) => [m.text, m.attachment?.name ?? null])).toEqual([['our new sofa', 'sofa.png']]);
    const api = await t.call('POST', '/v2/messages', { token, body: { channel_id: whatsapp, recipient: { chat_type: 'whatsapp', chat_id: '79001230001' }, attachment: photo, text: 'again' } });
    expect(api.statusCode).toBe(400);
  });

  it('sends the words after the file where the messenger shows none under it: a WhatsApp voice note, any file of a MAX personal account (no live driver sends one)', async () => {
    const voice = await send(whatsapp, '79001230002', { attachment: note, text: 'listen, please' });
    expect(voice.statusCode, voice.body).toBe(201);
    const { request_id, caption_request_id } = voice.json().data as { request_id: string; caption_request_id: string };
    expect([(await delivered(request_id)).text, (await delivered(caption_request_id)).text]).toEqual([null, 'listen, please']);
    expect((await history('79001230002')).map((m) => [m.text, m.attachment?.name ?? null])).toEqual([
      [null, 'voice-1.ogg'],
      ['listen, please', null],
    ]);
    const max = await send(maxPersonal, '5550001', { attachment: photo, text: 'our new sofa' });
    expect(max.statusCode, max.body).toBe(201);
    expect(max.json().data.caption_request_id).toEqual(expect.any(String));
    const long = await send(whatsapp, '79001230002', { attachment: photo, text: 'x'.repeat(1025) });
    expect(long.json().data.caption_request_id).toEqual(expect.any(String));
  });

  it('names the file a customer’s caption belongs to in the history', async () => {
    const res = await t.call('POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { token, body: { chat_type: 'whatsapp', chat_id: '79001230003', attachment: photo, text: 'is it blue?' } });
    expect(res.statusCode, res.body).toBe(201);
    await t.call('POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { token, body: { chat_type: 'whatsapp', chat_id: '79001230003', text: 'hello?' } });
    const shown = await history('79001230003');
    expect(shown.map((m) => [m.text, m.attachment?.name ?? null, m.caption_of ?? null])).toEqual([
      [null, 'sofa.png', null],
      ['is it blue?', null, res.json().data.message_id],
      ['hello?', null, null],
    ]);
  });

  it('names the file of words that open a page when the file is the last of the page before', async () => {
    const res = await t.call('POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { token, body: { chat_type: 'whatsapp', chat_id: '79001230004', attachment: photo, text: 'this one?' } });
    expect(res.statusCode, res.body).toBe(201);
    await t.call('POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { token, body: { chat_type: 'whatsapp', chat_id: '79001230004', text: 'or the red?' } });
    const chats = (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats as { chat_id: string; chat_ref: string }[];
    const ref = chats.find((c) => c.chat_id === '79001230004')!.chat_ref;
    const page = async (query: string) => (await t.call('GET', `/bff/chats/${ref}/messages?${query}`, { token: frame })).json().data as MessagePage;
    const newest = await page('limit=2');
    expect(newest.messages.map((m) => [m.text, m.caption_of ?? null])).toEqual([
      ['this one?', res.json().data.message_id],
      ['or the red?', null],
    ]);
    const older = await page(`limit=2&before=${encodeURIComponent(newest.older_cursor!)}`);
    expect(older.messages.map((m) => [m.message_id, m.attachment?.name ?? null])).toEqual([[res.json().data.message_id, 'sofa.png']]);
    // Around the words with nothing before them read (a page of one): they name no file, as nothing shows it.
    const around = await page(`limit=1&around=${newest.messages[0]!.message_id}`);
    expect(around.messages.map((m) => [m.text, m.caption_of ?? null])).toEqual([['this one?', null]]);
  });
});
