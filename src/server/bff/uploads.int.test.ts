import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../contract/messages.ts';
import { uploadLimits } from '../../contract/uploads.ts';
import { applyRetention } from '../core/events/retention.ts';
import { UPLOAD_RETENTION_MS } from '../core/uploads/uploads.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** An account's bytes a day in these tests: room for the other tests' small files; two halves fill it. */
const DAILY_LIMIT_BYTES = 2 * 1024 * 1024;

describe(`files agents attach in the chat frame (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let frame: string;
  let channelId: string;

  const upload = (name: string, type: string, content: Buffer, token = frame) =>
    t.call('POST', `/bff/uploads?name=${encodeURIComponent(name)}`, { token, body: content, headers: { 'content-type': type } });
  /** The link's path and query: the test gateway is reached in process. */
  const fetchLink = (url: string) => t.call('GET', url.replace(/^https?:\/\/[^/]+/, ''));

  beforeAll(async () => {
    t = await startTestGateway({ clock, env: { UPLOAD_DAILY_LIMIT_MB: String(DAILY_LIMIT_BYTES / 1024 / 1024) } });
    a = await t.newAccount('A');
    channelId = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
    frame = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
  });
  afterAll(() => t.close());

  it('keeps a file and serves it behind a signed link: a document as a download, a picture in place, nothing run', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(4096)]);
    const res = await upload('Счёт № 7.pdf', 'application/pdf', pdf);
    expect(res.statusCode, res.body).toBe(201);
    const attachment = res.json().data as Attachment;
    expect(attachment).toEqual({
      url: expect.stringMatching(/^http:\/\/[^/]+\/files\/[0-9a-f-]{36}\?signature=[\w-]+$/),
      name: 'Счёт № 7.pdf',
      mimetype: 'application/pdf',
      size: pdf.length,
      sha1: createHash('sha1').update(pdf).digest('hex'),
    });
    const served = await fetchLink(attachment.url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(pdf)).toBe(true);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('Счёт № 7.pdf')}`);
    expect(served.headers['content-security-policy']).toContain('sandbox');

    const png = randomBytes(512);
    const picture = (await upload('photo.png', 'image/png', png)).json().data as Attachment;
    const shown = await fetchLink(picture.url);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.headers['content-disposition']).toBeUndefined();
  });

  it('reads any type as bytes: a JSON file is kept as it was sent, a type kept without its parameters', async () => {
    const json = Buffer.from('{"__proto__": {"x": 1}, "a": [1, 2]}');
    const kept = (await upload('data.json', 'application/json', json)).json().data as Attachment;
    expect((await fetchLink(kept.url)).rawPayload.equals(json)).toBe(true);
    const text = (await upload('notes.txt', 'Text/Plain; charset=utf-8', Buffer.from('hi'))).json().data as Attachment;
    expect(text.mimetype).toBe('text/plain');
  });

  it('refuses an altered link, a file too large or empty, and sessions that are not the chat frame’s', async () => {
    const kept = (await upload('a.txt', 'text/plain', Buffer.from('hello'))).json().data as Attachment;
    const signature = kept.url.split('signature=')[1]!;
    const altered = kept.url.replace(signature, `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
    expect((await fetchLink(altered)).statusCode).toBe(403);
    const other = (await upload('b.txt', 'text/plain', Buffer.from('other'))).json().data as Attachment;
    const swapped = `${other.url.split('?')[0]}?${kept.url.split('?')[1]}`;
    expect((await fetchLink(swapped)).statusCode).toBe(403);

    const tooLarge = await upload('big.bin', 'application/octet-stream', Buffer.alloc(uploadLimits.maxBytes + 1));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe('PAYLOAD_TOO_LARGE');
    const empty = await upload('empty.txt', 'text/plain', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const unnamed = await t.call('POST', '/bff/uploads', { token: frame, body: Buffer.from('x'), headers: { 'content-type': 'text/plain' } });
    expect(unnamed.statusCode).toBe(400);

    const channels = await openFrame(t, a.token, 'channels', {});
    expect((await upload('a.txt', 'text/plain', Buffer.from('x'), channels)).statusCode).toBe(403);
    expect((await t.call('POST', '/bff/uploads?name=a.txt', { body: Buffer.from('x'), headers: { 'content-type': 'text/plain' } })).statusCode).toBe(401);
  });

  it('sends an uploaded file as a message’s attachment', async () => {
    const content = randomBytes(2048);
    const attachment = (await upload('invoice.pdf', 'application/pdf', content)).json().data as Attachment;
    const sent = await t.call('POST', '/bff/messages', { token: frame, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '79001112233' }, attachment } });
    expect(sent.statusCode, sent.body).toBe(201);
    const message = await settled(t, sent.json().data.request_id);
    expect(message.status).toBe('delivered');
    const chats = (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats as { chat_id: string; chat_ref: string }[];
    const history = await t.call('GET', `/bff/chats/${chats.find((c) => c.chat_id === '79001112233')!.chat_ref}/messages`, { token: frame });
    expect(history.json().data.messages.at(-1).attachment).toEqual(attachment);
  });

  it('refuses a file that would take the account past its bytes of the last 24 hours, and takes it again a day later', async () => {
    const other = await t.newAccount('B');
    const theirs = await openFrame(t, other.token, 'chats', { user: { id: 'agent-9' }, scope: 'global' });
    const half = randomBytes(DAILY_LIMIT_BYTES / 2);
    expect((await upload('a.bin', 'application/octet-stream', half, theirs)).statusCode).toBe(201);
    expect((await upload('b.bin', 'application/octet-stream', half, theirs)).statusCode).toBe(201);
    const over = await upload('c.bin', 'application/octet-stream', Buffer.from('x'), theirs);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ error: 'UPLOAD_QUOTA_EXCEEDED', data: { limit_bytes: DAILY_LIMIT_BYTES, used_bytes: DAILY_LIMIT_BYTES } });
    // Another account's room is its own.
    expect((await upload('mine.txt', 'text/plain', Buffer.from('x'))).statusCode).toBe(201);
    clock.advance(24 * 60 * 60 * 1000 + 1_000);
    const later = await openFrame(t, other.token, 'chats', { user: { id: 'agent-9' }, scope: 'global' });
    expect((await upload('c.bin', 'application/octet-stream', Buffer.from('x'), later)).statusCode).toBe(201);
  });

  it('keeps files for their retention, then answers 404 and deletes them', async () => {
    // A frame opened now: the time the tests before moved on may have ended the first one's session.
    const current = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    const kept = (await upload('old.txt', 'text/plain', Buffer.from('old'), current)).json().data as Attachment;
    clock.advance(UPLOAD_RETENTION_MS - 1_000);
    expect((await fetchLink(kept.url)).statusCode).toBe(200);
    // The frame's session ended long ago: the next file comes from a frame opened now.
    const later = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    const fresh = (await upload('fresh.txt', 'text/plain', Buffer.from('fresh'), later)).json().data as Attachment;
    clock.advance(2_000);
    const gone = await fetchLink(kept.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe('NOT_FOUND');
    const pass = await applyRetention({ store: t.gateway.store, clock });
    // Every file uploaded before `kept` went with it; `fresh` stays.
    expect(pass.uploads).toBeGreaterThanOrEqual(1);
    expect((await fetchLink(fresh.url)).statusCode).toBe(200);
    expect((await t.gateway.store.uploads.open(new URL(kept.url).pathname.split('/').at(-1)!))).toBeUndefined();
  });
});
