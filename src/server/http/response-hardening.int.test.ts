import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import { createLink } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { gatewayLogger } from './request-log.ts';

/** The directives of a Content-Security-Policy header, by name. */
const directives = (policy: string) => new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe(`hardened answers (${databaseKind()})`, () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
  let t: TestGateway;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' }, logger: { ...gatewayLogger('debug'), stream } });
    base = await t.gateway.listen();
    ({ token } = await t.newAccount());
    await t.call('PUT', '/v2/embedding/origins', { token, body: { origins: ['https://crm.example'] } });
  });
  afterAll(() => t.close());

  it("limits the frame page's scripts, styles and connections to the gateway's own origin", async () => {
    const { url } = await createLink(t, token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const page = await fetch(`${base}${new URL(url).pathname}${new URL(url).search}`);
    expect(page.status).toBe(200);
    const policy = directives(page.headers.get('content-security-policy')!);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(['https://crm.example']);
  });

  it("gives socket.io's own HTTP answers nosniff and frame-ancestors 'none'", async () => {
    const handshake = await fetch(`${base}/bff/socket.io/?EIO=4&transport=polling`);
    const refused = await fetch(`${base}/bff/socket.io/?EIO=9&transport=nope`);
    for (const res of [handshake, refused]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
      await res.arrayBuffer();
    }
    expect(handshake.status).toBe(200);
    expect(refused.status).toBe(400);
  });

  it('does not log a client that aborts its request as an unhandled error', async () => {
    lines.length = 0;
    const port = Number(new URL(base).port);
    // The gateway's side of the connection closing: whether the client went before or while the body was read
    // (on a slow database the authentication takes that long), the request's handling is over by then.
    let serverSideClosed = false;
    t.gateway.app.server.once('connection', (s) => s.once('close', () => (serverSideClosed = true)));
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /v2/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"data":[`);
      setImmediate(() => socket.destroy());
    });
    socket.on('error', () => {});
    await eventually(async () => (serverSideClosed && lines.some((l) => l.msg === 'incoming request') ? true : undefined));
    // Read while the body was arriving, the abort is told as such (debug); before that, nothing is said of it at all.
    await eventually(async () => (lines.some((l) => l.msg === 'client aborted the request') || !lines.some((l) => (l.level as number) >= 40) ? true : undefined));
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
