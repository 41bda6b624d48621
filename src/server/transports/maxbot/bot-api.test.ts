import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaxApiError, MaxApiUnreachable, maxApi } from './bot-api.ts';

describe('the MAX Bot API client', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; authorization: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/me') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"user_id":1,"first_name":"Bot"}');
        if (path === '/refused') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":false,"message":"Message is too old"}');
        if (path === '/busy') return void res.writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' }).end('{"code":"too.many.requests","message":"Slow down"}');
        if (path === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the token in the Authorization header, never in the address, and JSON both ways', async () => {
    const api = maxApi(base, 'secret-token-of-the-bot');
    expect(await api.call('GET', '/me')).toEqual({ user_id: 1, first_name: 'Bot' });
    await api.call('GET', '/me', { query: { user_id: '42' }, body: { text: 'hi' } });
    expect(seen.at(-1)).toEqual({ url: '/me?user_id=42', authorization: 'secret-token-of-the-bot', body: '{"text":"hi"}' });
    expect(seen.every((s) => !s.url.includes('secret-token'))).toBe(true);
  });

  it('tells refusals (with MAX’s code and wait) from answers that are not MAX’s', async () => {
    const api = maxApi(base, 'secret-token-of-the-bot');
    await expect(api.call('PUT', '/refused')).rejects.toMatchObject({ name: 'MaxApiError', status: 200, message: 'Message is too old' });
    const busy = await api.call('POST', '/busy').catch((err: unknown) => err);
    expect(busy).toBeInstanceOf(MaxApiError);
    expect(busy).toMatchObject({ status: 429, code: 'too.many.requests', retryAfterMs: 3000 });
    await expect(api.call('GET', '/html')).rejects.toBeInstanceOf(MaxApiUnreachable);
    await expect(api.call('GET', '/gateway-error')).rejects.toMatchObject({ name: 'MaxApiError', status: 502, code: '' });
    const down = await maxApi('http://127.0.0.1:1', 'secret-token-of-the-bot').call('GET', '/me').catch((err: unknown) => err);
    expect(down).toBeInstanceOf(MaxApiUnreachable);
    expect(String(down)).not.toContain('secret-token');
  });
});
