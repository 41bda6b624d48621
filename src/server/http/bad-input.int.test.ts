import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** One raw HTTP exchange: what the router answers before any route runs can only be reached on a socket. */
function rawRequest(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [status, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(status ?? '')?.[1]), body: rest.join('\r\n\r\n') });
    });
  });
}

describe(`bad input stays a 4xx (${databaseKind()})`, () => {
  let t: TestGateway;
  let port: number;
  let token: string;
  let channelId: string;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    port = Number(new URL(await t.gateway.listen()).port);
    ({ token } = await t.newAccount());
    channelId = await activeChannel(t, channelClient(t, token), 'telegram');
  });
  afterAll(() => t.close());

  /** JSON text as a client may write it: `\ud800` is valid JSON and decodes to a lone surrogate. */
  const rawJson = (method: 'POST' | 'PUT', url: string, json: string, auth = token) =>
    t.gateway.app.inject({ method, url, headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, payload: json });

  it('refuses an unpaired surrogate in any string field with 400 naming the field, on /v2 and /bff alike', async () => {
    const message = await rawJson('POST', '/v2/messages', `{"channel_id":"${channelId}","recipient":{"chat_type":"telegram","chat_id":"5"},"text":"a\\ud800b"}`);
    expect(message.statusCode).toBe(400);
    expect(message.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'text', message: 'must not contain an unpaired UTF-16 surrogate' }] } });

    const contact = await rawJson('POST', '/v2/contacts', '{"data":[{"chat_type":"telegram","chat_id":"5","name":"\\udc00"}]}');
    expect(contact.statusCode).toBe(400);
    expect(contact.json().data.fields).toEqual([{ field: 'data.0.name', message: 'must not contain an unpaired UTF-16 surrogate' }]);

    const account = await rawJson('POST', '/v2/accounts', '{"name":"x\\uD83D"}', t.partnerKey);
    expect(account.statusCode).toBe(400);

    const session = await openFrame(t, token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const frame = await rawJson('POST', '/bff/messages', `{"channel_id":"${channelId}","recipient":{"chat_type":"telegram","chat_id":"5"},"text":"\\ud800"}`, session);
    expect(frame.statusCode).toBe(400);
    expect(frame.json().data.fields).toEqual([{ field: 'text', message: 'must not contain an unpaired UTF-16 surrogate' }]);

    // A pair (an emoji) is a character like any other.
    const emoji = await rawJson('POST', '/v2/messages', `{"channel_id":"${channelId}","recipient":{"chat_type":"telegram","chat_id":"5"},"text":"\\ud83d\\ude00"}`);
    expect(emoji.statusCode).toBe(201);
  });

  it('bounds attachment.size and refuses an attachment URL that is not http(s), naming the field', async () => {
    const send = (attachment: string) =>
      rawJson('POST', '/v2/messages', `{"channel_id":"${channelId}","recipient":{"chat_type":"telegram","chat_id":"5"},"attachment":${attachment}}`);
    const huge = await send('{"url":"https://files.example/a.png","size":1e400}');
    expect(huge.statusCode).toBe(400);
    expect(huge.json().data.fields.map((f: { field: string }) => f.field)).toEqual(['attachment.size']);
    for (const url of ['ftp://files.example/a.png', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,hi']) {
      const res = await send(JSON.stringify({ url }));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().data.fields, url).toEqual([{ field: 'attachment.url', message: 'must be an http or https URL' }]);
    }
    expect((await send('{"url":"HTTPS://files.example/a.png","size":1024}')).statusCode).toBe(201);
  });

  it("answers the router's own refusals (bad URL, too long a parameter, headers too large, a malformed request) in the error shape", async () => {
    const answers = [
      [400, await rawRequest(port, `GET /v2/channels/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)],
      [414, await rawRequest(port, `GET /v2/channels/${'a'.repeat(200)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)],
      [431, await rawRequest(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`)],
      [400, await rawRequest(port, `GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n`)],
    ] as const;
    for (const [status, answer] of answers) {
      expect(answer.status).toBe(status);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(Object.keys(body).sort(), answer.body).toEqual(['description', 'error']);
    }
  });
});
