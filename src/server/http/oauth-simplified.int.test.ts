import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPartnerCredentials } from '../core/auth/partners.ts';
import { authRepository } from '../storage/repositories/account-profiles.ts';
import type { TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { api, basic, PARTNER, startPartnerGateway } from '../testing/partner-http.ts';
import { databaseKind } from '../testing/test-database.ts';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const MACHINE = 'urn:wazzup:oauth:token-type:machine_token';

describe(`simplified authorization over HTTP (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let base: string;
  const partner = basic(PARTNER.login, PARTNER.secret);
  let accountId: number;

  const token = (body: unknown, auth = partner) => api(base, 'POST', '/v2/oauth/token', auth, body);
  const machineToken = async (scope = 'transport,crm', auth = partner) => {
    const res = await token({ grant_type: 'client_credentials', client_credentials_data: { scope } }, auth);
    expect(res.status).toBe(200);
    return res.body.data!.access_token as string;
  };
  const exchange = async (scope = 'transport,crm', subject: string | number = accountId) =>
    token({
      grant_type: EXCHANGE,
      token_exchange_data: { subject_token: await machineToken(), subject_token_type: MACHINE, requested_subject: String(subject), scope },
    });
  const call = (path: string, access: string) => api(base, 'GET', path, `Bearer ${access}`);

  beforeAll(async () => {
    ({ t, base } = await startPartnerGateway(clock));
    const created = await api(base, 'POST', '/v2/accounts', partner, { name: 'Acme Ltd', lang: 'en', currency: 'EUR', country: 'EU', timezone: 3 });
    expect(created.status).toBe(201);
    accountId = created.body.data!.account!.account_id as number;
  });
  afterAll(() => t.close());

  it('creates accounts with an 8-digit account_id under Basic, and refuses a wrong secret with 401', async () => {
    expect(String(accountId)).toMatch(/^\d{8}$/);
    const wrong = await api(base, 'POST', '/v2/accounts', basic(PARTNER.login, 'not the secret'), { name: 'Other' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('UNAUTHORIZED');
    expect((await api(base, 'GET', '/v2/accounts', basic('nobody', PARTNER.secret))).status).toBe(401);
    expect((await api(base, 'POST', '/v2/accounts', partner, { name: 'Ab' })).status).toBe(400);
  });

  it('walks machine token → exchange → call → 401 after expiry → refresh → call', async () => {
    const machine = await machineToken();
    expect(machine.split('.')).toHaveLength(3);
    const exchanged = await token({
      grant_type: EXCHANGE,
      token_exchange_data: { subject_token: machine, subject_token_type: MACHINE, requested_subject: String(accountId), scope: 'transport,crm' },
    });
    expect(exchanged.status).toBe(200);
    const first = exchanged.body.data as { access_token: string; refresh_token: string; expires_in: number };
    expect(first.expires_in).toBe(3600);
    expect(exchanged.body.access_token).toBe(first.access_token);

    expect((await call('/v2/channels', first.access_token)).status).toBe(200);
    expect((await call('/v2/users', first.access_token)).status).toBe(200);
    clock.advance(3600_000);
    const expired = await call('/v2/channels', first.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('UNAUTHORIZED');

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token_data: { refresh_token: first.refresh_token } });
    expect(refreshed.status).toBe(200);
    const second = refreshed.body.data as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await call('/v2/channels', second.access_token)).status).toBe(200);

    // The spent refresh token again: refused, and its whole family with it.
    const replay = await token({ grant_type: 'refresh_token', refresh_token_data: { refresh_token: first.refresh_token } });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await call('/v2/channels', second.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token_data: { refresh_token: second.refresh_token } })).body.error).toBe('invalid_grant');
  });

  it('takes a flat refresh_token and answers the tokens at the top level too', async () => {
    const start = (await exchange()).body.data as { refresh_token: string };
    const res = await token({ grant_type: 'refresh_token', refresh_token: start.refresh_token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ access_token: expect.stringMatching(/^mga_/), refresh_token: expect.stringMatching(/^mgr_/), expires_in: 3600 });
  });

  it('refuses a refresh token after 7 days', async () => {
    const start = (await exchange()).body.data as { refresh_token: string };
    clock.advance(7 * 86_400_000);
    expect((await token({ grant_type: 'refresh_token', refresh_token: start.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('holds a token to its scopes: transport reaches channels, not messages or users', async () => {
    const access = ((await exchange('transport')).body.data as { access_token: string }).access_token;
    expect((await call('/v2/channels', access)).status).toBe(200);
    for (const [method, path] of [['GET', '/v2/users'], ['GET', '/v2/contacts'], ['POST', '/v2/messages'], ['POST', '/v2/iframe-links/chats']]) {
      const res = await api(base, method!, path!, `Bearer ${access}`, method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    const crm = ((await exchange('crm')).body.data as { access_token: string }).access_token;
    expect((await call('/v2/users', crm)).status).toBe(200);
    expect((await call('/v2/channels', crm)).status).toBe(403);
    // The long-lived client token keeps every scope.
    const { token: longLived } = await t.issueToken(String(accountId), 'client');
    expect((await call('/v2/channels', longLived)).status).toBe(200);
    expect((await call('/v2/users', longLived)).status).toBe(200);
  });

  it('names OAuth errors inside the error body', async () => {
    const machine = await machineToken('transport');
    const wider = await token({
      grant_type: EXCHANGE,
      token_exchange_data: { subject_token: machine, subject_token_type: MACHINE, requested_subject: String(accountId), scope: 'transport,crm' },
    });
    expect([wider.status, wider.body.error]).toEqual([400, 'invalid_scope']);
    expect((await token({ grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    expect((await token({})).body.error).toBe('invalid_request');
    expect((await token({ grant_type: 'client_credentials', client_credentials_data: { scope: 'everything' } })).body.error).toBe('invalid_scope');
    // A scope naming nothing is not "every scope" nor a grant of none: it is refused, on every grant type.
    for (const empty of [',', ' , ', ',,']) {
      expect((await token({ grant_type: 'client_credentials', client_credentials_data: { scope: empty } })).body.error).toBe('invalid_scope');
      const exchanged = await token({ grant_type: EXCHANGE, token_exchange_data: { subject_token: machine, subject_token_type: MACHINE, requested_subject: String(accountId), scope: empty } });
      expect([exchanged.status, exchanged.body.error]).toEqual([400, 'invalid_scope']);
    }
    const forged = await token({ grant_type: EXCHANGE, token_exchange_data: { subject_token: `${machine}x`, subject_token_type: MACHINE, requested_subject: String(accountId) } });
    expect(forged.body.error).toBe('invalid_grant');
  });

  it('lets a partner exchange tokens only for accounts it created, and read only those', async () => {
    await setPartnerCredentials({ auth: authRepository(t.gateway.database.db), clock }, 'other-partner', 'another partner secret');
    const other = basic('other-partner', 'another partner secret');
    const machine = await machineToken('transport,crm', other);
    const res = await token(
      { grant_type: EXCHANGE, token_exchange_data: { subject_token: machine, subject_token_type: MACHINE, requested_subject: String(accountId) } },
      other,
    );
    expect(res.body.error).toBe('invalid_grant');
    expect((await api(base, 'GET', `/v2/accounts/${accountId}`, other)).status).toBe(404);
    expect((await api(base, 'GET', '/v2/accounts', other)).body.data).toEqual([]);
    // Nor may it present the first partner's machine token.
    const stolen = await token(
      { grant_type: EXCHANGE, token_exchange_data: { subject_token: await machineToken(), subject_token_type: MACHINE, requested_subject: String(accountId) } },
      other,
    );
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('revokes every OAuth grant of an account at the partner\'s word', async () => {
    const live = (await exchange()).body.data as { access_token: string; refresh_token: string };
    expect((await call('/v2/channels', live.access_token)).status).toBe(200);
    const revoked = await api(base, 'DELETE', `/v2/accounts/${accountId}/grants`, partner);
    expect(revoked.status).toBe(200);
    expect((revoked.body.data as { revoked: number }).revoked).toBeGreaterThan(0);
    expect((await call('/v2/channels', live.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: live.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('limits failed Basic sign-ins per address, then lets it try again once the window ends', async () => {
    const wrong = basic(PARTNER.login, 'guess');
    for (let i = 0; i < 10; i++) expect((await api(base, 'GET', '/v2/accounts', wrong)).status).toBe(401);
    const blocked = await api(base, 'GET', '/v2/accounts', partner);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('TOO_MANY_REQUESTS');
    clock.advance(15 * 60_000);
    expect((await api(base, 'GET', '/v2/accounts', partner)).status).toBe(200);
  });
});
