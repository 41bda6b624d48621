import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFrame } from '../testing/frames.ts';
import type { TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { basic, hiddenFields, PARTNER, pkce, startPartnerGateway } from '../testing/partner-http.ts';
import { databaseKind } from '../testing/test-database.ts';
import { failedAuthPolicy } from './rate-limit/failed-auth.ts';
import { signInPolicy } from './rate-limit/sign-in-limiter.ts';

const REDIRECT = 'http://127.0.0.1:9/crm/callback';
const OWNER = { email: 'burst-owner@example.com', password: 'owner password 1' };

/** How many answers had each status. */
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

/**
 * Sign-in attempts sent all at once from one address, the right credential among them after the limit: each limit
 * checks no more attempts than it allows (every checked one answers 401, or 200 for the right one), and refuses the
 * rest with 429 before checking them, the right credential included.
 */
describe(`sign-in limits under concurrent bursts (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let account: { accountId: string; token: string };
  const burst = (count: number, rightAt: number, send: (right: boolean, i: number) => Promise<{ statusCode: number }>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i === rightAt, i).then((r) => r.statusCode)));

  beforeAll(async () => {
    ({ t } = await startPartnerGateway(clock));
    account = await t.newAccount('Burst');
  });
  afterAll(() => t.close());

  it('checks at most the Basic sign-in limit of 300 concurrent partner attempts', async () => {
    const statuses = await burst(300, 39, (right, i) =>
      t.gateway.app.inject({ method: 'GET', url: '/v2/accounts', remoteAddress: '198.51.100.1', headers: { authorization: basic(PARTNER.login, right ? PARTNER.secret : `guess ${i}`) } }),
    );
    expect(tally(statuses)).toEqual({ 401: signInPolicy.max, 429: 300 - signInPolicy.max });
    expect(statuses[39]).toBe(429);
    // Another address signs in.
    const other = await t.gateway.app.inject({ method: 'GET', url: '/v2/accounts', remoteAddress: '198.51.100.2', headers: { authorization: basic(PARTNER.login, PARTNER.secret) } });
    expect(other.statusCode).toBe(200);
  });

  it('lets a concurrent burst of right partner sign-ins through', async () => {
    const statuses = await burst(30, -1, () =>
      t.gateway.app.inject({ method: 'GET', url: '/v2/accounts', remoteAddress: '198.51.100.3', headers: { authorization: basic(PARTNER.login, PARTNER.secret) } }),
    );
    expect(tally(statuses)).toEqual({ 200: 30 });
  });

  it('checks at most the sign-in limit of concurrent owner sign-ins on the consent page', async () => {
    const partner = basic(PARTNER.login, PARTNER.secret);
    const owner = await t.call('PUT', `/v2/accounts/${await accountNumber()}/owner`, { token: t.partnerKey, body: OWNER });
    expect(owner.statusCode).toBe(200);
    const client = await t.gateway.app.inject({ method: 'POST', url: '/v2/oauth/clients', headers: { authorization: partner }, payload: { name: 'Burst CRM', redirect_uris: [REDIRECT] } });
    expect(client.statusCode).toBe(201);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: (client.json().data as { client_id: string }).client_id,
      redirect_uri: REDIRECT,
      scope: 'crm',
      state: 's',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const page = await t.gateway.app.inject({ method: 'GET', url: `/v2/oauth/authorize?${query}` });
    const hidden = hiddenFields(page.body);
    const statuses = await burst(100, 20, (right, i) =>
      t.gateway.app.inject({
        method: 'POST',
        url: `/v2/oauth/authorize?${query}`,
        remoteAddress: '198.51.100.4',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...hidden, decision: 'allow', email: OWNER.email, password: right ? OWNER.password : `guess ${i}` }).toString(),
      }),
    );
    expect(tally(statuses)).toEqual({ 401: signInPolicy.max, 429: 100 - signInPolicy.max });
    expect(statuses[20]).toBe(429);
  });

  it('checks at most the failed-authentication limit of concurrent bearer tokens and frame session tokens', async () => {
    const bearer = await burst(200, 100, (right, i) =>
      t.gateway.app.inject({ method: 'GET', url: '/v2/channels', remoteAddress: '198.51.100.5', headers: { authorization: `Bearer ${right ? account.token : `mgs_guess${i}`}` } }),
    );
    expect(tally(bearer)).toEqual({ 401: failedAuthPolicy.maxFailures, 429: 200 - failedAuthPolicy.maxFailures });
    expect(bearer[100]).toBe(429);

    const session = await openFrame(t, account.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const frames = await burst(200, 100, (right, i) =>
      t.gateway.app.inject({ method: 'GET', url: '/bff/session', remoteAddress: '198.51.100.6', headers: { authorization: `Bearer ${right ? session : `${session.slice(0, -4)}${String(i).padStart(4, '0')}`}` } }),
    );
    expect(tally(frames)).toEqual({ 401: failedAuthPolicy.maxFailures, 429: 200 - failedAuthPolicy.maxFailures });
    expect(frames[100]).toBe(429);
  });

  it('lets a concurrent burst of right bearer tokens through', async () => {
    const statuses = await burst(120, -1, () =>
      t.gateway.app.inject({ method: 'GET', url: '/v2/channels', remoteAddress: '198.51.100.7', headers: { authorization: `Bearer ${account.token}` } }),
    );
    expect(tally(statuses)).toEqual({ 200: 120 });
  });

  async function accountNumber(): Promise<number> {
    const created = await t.call('POST', '/v2/accounts', { token: t.partnerKey, body: { name: 'Owned Co' } });
    return (created.json().data as { account: { account_id: number } }).account.account_id;
  }
});
