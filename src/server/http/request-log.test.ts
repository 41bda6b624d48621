import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { gatewayLogger, loggedRequest, SLOW_REQUEST_MS, summaryLevel, withoutSecrets } from './request-log.ts';

describe('requests as the log tells them', () => {
  it('takes the secret out of a hook’s address, wherever it stands in the query, and leaves other addresses alone', () => {
    expect(withoutSecrets('/hooks/avito/0b9a4c9e?secret=abc_DEF-123')).toBe('/hooks/avito/0b9a4c9e?secret=[redacted]');
    expect(withoutSecrets('/hooks/avito/x?a=1&SECRET=abc&b=2')).toBe('/hooks/avito/x?a=1&SECRET=[redacted]&b=2');
    expect(withoutSecrets('/v2/channels?delete_chats=true')).toBe('/v2/channels?delete_chats=true');
  });

  it('takes out signed links, frame links, OAuth returns and tokens put in a query string', () => {
    expect(withoutSecrets('/downloads/exports/e.csv?expires=1700000000&signature=AbC')).toBe('/downloads/exports/e.csv?expires=1700000000&signature=[redacted]');
    expect(withoutSecrets('/files/f?signature=s1')).toBe('/files/f?signature=[redacted]');
    expect(withoutSecrets('/embed/chats?link=eyJhbGciOi.x.y')).toBe('/embed/chats?link=[redacted]');
    expect(withoutSecrets('/oauth/return/avito?code=c0de&state=st4te')).toBe('/oauth/return/avito?code=[redacted]&state=[redacted]');
    expect(withoutSecrets('/v2/channels?access_token=mgs_x&token=t&api_key=k')).toBe('/v2/channels?access_token=[redacted]&token=[redacted]&api_key=[redacted]');
    expect(withoutSecrets('GET https://gw.example/hooks/x?hub.verify_token=v failed')).toBe('GET https://gw.example/hooks/x?hub.verify_token=[redacted] failed');
    expect(withoutSecrets('/v2/messages?limit=10&codec=x&stateful=1')).toBe('/v2/messages?limit=10&codec=x&stateful=1');
  });

  it('tells a secret parameter by its decoded name, and by the names other services sign addresses with', () => {
    expect(withoutSecrets('/files/f?%73ignature=s1&%2573ig=s2&S%49GNATURE=s3')).toBe('/files/f?%73ignature=[redacted]&%2573ig=[redacted]&S%49GNATURE=[redacted]');
    expect(withoutSecrets('/x?jwt=a.b.c&auth=u:p&X-Goog-Signature=g&X-Goog-Credential=c&X-Amz-Credential=k&client_secret=s&id_token=t&private_key=p&passwd=w'))
      .toBe('/x?jwt=[redacted]&auth=[redacted]&X-Goog-Signature=[redacted]&X-Goog-Credential=[redacted]&X-Amz-Credential=[redacted]&client_secret=[redacted]&id_token=[redacted]&private_key=[redacted]&passwd=[redacted]');
    expect(withoutSecrets('/x?sess%69on=abc&a+uth=z')).toBe('/x?sess%69on=[redacted]&a+uth=z');
    expect(withoutSecrets('/v2/contacts?offset=5&limit=10&after=x&expires=1700000000')).toBe('/v2/contacts?offset=5&limit=10&after=x&expires=1700000000');
  });

  it('keeps the fields Fastify logs of a request', () => {
    const logged = loggedRequest({ method: 'POST', url: '/hooks/avito/c?secret=s', host: 'gw.example.com', ip: '10.0.0.1', headers: {}, socket: { remotePort: 4000 } });
    expect(logged).toEqual({ method: 'POST', url: '/hooks/avito/c?secret=[redacted]', version: undefined, host: 'gw.example.com', remoteAddress: '10.0.0.1', remotePort: 4000 });
  });

  it('clears secrets from every log line: its message, its fields and an error it carries', () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) });
    const log = pino(gatewayLogger('info'), stream);
    log.info('fetching https://files.example/x?signature=SEKRET1');
    log.warn({ url: 'https://crm.example/hook?token=SEKRET2', attempt: 2 }, 'delivery failed');
    log.error({ err: new Error('GET /v2/x?access_token=SEKRET3 refused') }, 'unhandled error');
    log.info({ req: { method: 'GET', url: '/embed/chats?link=SEKRET4', headers: { authorization: 'Bearer SEKRET5' } } }, 'incoming request');
    const text = lines.join('');
    expect(lines).toHaveLength(4);
    for (const secret of ['SEKRET1', 'SEKRET2', 'SEKRET3', 'SEKRET4', 'SEKRET5']) expect(text).not.toContain(secret);
    expect(text).toContain('attempt');
  });

  it('summarises a request at info only when it failed or was slow', () => {
    expect(summaryLevel(200, 3)).toBe('debug');
    expect(summaryLevel(304, 3)).toBe('debug');
    expect(summaryLevel(404, 3)).toBe('info');
    expect(summaryLevel(500, 3)).toBe('info');
    expect(summaryLevel(200, SLOW_REQUEST_MS)).toBe('info');
  });
});
