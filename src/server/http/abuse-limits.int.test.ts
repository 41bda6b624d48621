import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingPolicy } from '../core/embedding/policy.ts';
import { createLink, openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import { failedAuthPolicy } from './rate-limit/failed-auth.ts';

describe(`abuse limits (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  const from = (remoteAddress: string, url: string, token: string) =>
    t.gateway.app.inject({ method: 'GET', url, remoteAddress, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    a = await t.newAccount('A');
    b = await t.newAccount('B');
  });
  afterAll(() => t.close());

  it('refuses an address that keeps failing authentication with 429 and Retry-After, before reading what it sends', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 100; i++) {
      last = await from('203.0.113.7', '/v2/channels', `mgs_wrong${i}`);
      statuses.push(last.statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(failedAuthPolicy.maxFailures);
    expect(statuses.slice(failedAuthPolicy.maxFailures).every((s) => s === 429)).toBe(true);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS' });
    // Even a right token is refused from there until the window ends; other addresses are not concerned.
    expect((await from('203.0.113.7', '/v2/channels', a.token)).statusCode).toBe(429);
    expect((await from('203.0.113.8', '/v2/channels', a.token)).statusCode).toBe(200);
    // The frames' session tokens count the same way.
    for (let i = 0; i < failedAuthPolicy.maxFailures; i++) expect((await from('203.0.113.9', '/bff/session', `wrong${i}`)).statusCode).toBe(401);
    expect((await from('203.0.113.9', '/bff/session', 'wrong')).statusCode).toBe(429);
    clock.advance(failedAuthPolicy.windowSeconds * 1000);
    expect((await from('203.0.113.7', '/v2/channels', a.token)).statusCode).toBe(200);
  });

  it('counts the requests of all frame sessions of an account against the account as well', async () => {
    clock.advance(60_000);
    const sessions = await Promise.all([1, 2, 3].map(() => openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' })));
    const other = await openFrame(t, b.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const perSession = embeddingPolicy.accountFrameRateLimitRequests / 2;
    for (const session of sessions.slice(0, 2)) {
      for (let i = 0; i < perSession; i++) expect((await t.call('GET', '/bff/session', { token: session })).statusCode).toBe(200);
    }
    const third = await t.call('GET', '/bff/session', { token: sessions[2]! });
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect((await t.call('GET', '/bff/session', { token: other })).statusCode).toBe(200);
  });

  it('caps the open frame sessions of an account', async () => {
    const now = clock.now();
    const later = new Date(now.getTime() + 15 * 60_000);
    const missing = embeddingPolicy.maxOpenSessionsPerAccount - 1 - (await t.gateway.store.embedSessions.countOpen(b.accountId, now));
    await sql`
      insert into embed_sessions (id, account_id, link_id, secret_hash, kind, chats, options, created_at, expires_at, max_expires_at)
      select gen_random_uuid(), ${b.accountId}, 'filler-' || n, 'x', 'chats', '[]'::jsonb, '{}'::jsonb, ${now}, ${later}, ${later}
      from generate_series(1, ${missing}) as n`.execute(t.gateway.database.db);
    // The one that fills the cap opens; the next is refused.
    await openFrame(t, b.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const { link } = await createLink(t, b.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const refused = await t.call('POST', '/bff/session', { body: { link } });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('TOO_MANY_REQUESTS');
    // Sessions that ended no longer count.
    clock.advance(16 * 60_000);
    expect(await openFrame(t, b.token, 'chats', { user: { id: 'u1' }, scope: 'global' })).toMatch(/./);
  });
});
