import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`authentication and access (${databaseKind()})`, () => {
  let t: TestGateway;
  let account: { accountId: string; token: string };

  beforeAll(async () => {
    t = await startTestGateway();
    account = await t.newAccount('Acme');
  });
  afterAll(() => t.close());

  const expectUnauthorized = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'UNAUTHORIZED', description: expect.any(String) });
  };

  it('accepts a client token', async () => {
    const res = await t.call('GET', '/v2/webhooks', { token: account.token });
    expect(res.statusCode).toBe(200);
  });

  it('takes the scheme name in any case, as HTTP has it', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await t.call('GET', '/v2/webhooks', { headers: { authorization: `${scheme} ${account.token}` } })).statusCode).toBe(200);
    }
  });

  it('answers 401 without an Authorization header', async () => {
    expectUnauthorized(await t.call('GET', '/v2/webhooks'));
  });

  it.each([
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['an empty bearer', 'Bearer '],
    ['garbage', 'Bearer not-a-token'],
    ['a token id with a wrong secret', 'WRONG_SECRET'],
    ['an unknown token id', `Bearer mgw_${'0'.repeat(32)}_${'A'.repeat(43)}`],
  ])('answers 401 for %s', async (_label, header) => {
    const value = header === 'WRONG_SECRET' ? `Bearer ${account.token.slice(0, -4)}AAAA` : header;
    expectUnauthorized(await t.call('GET', '/v2/webhooks', { headers: { authorization: value } }));
  });

  it('answers 401 once a token is revoked', async () => {
    const { tokenId, token } = await t.issueToken(account.accountId, 'client');
    expect((await t.call('GET', '/v2/webhooks', { token })).statusCode).toBe(200);
    const revoke = await t.call('DELETE', `/v2/accounts/${account.accountId}/tokens/${tokenId}`, { token: t.partnerKey });
    expect(revoke.statusCode).toBe(200);
    expectUnauthorized(await t.call('GET', '/v2/webhooks', { token }));
    // The account's other token keeps working.
    expect((await t.call('GET', '/v2/webhooks', { token: account.token })).statusCode).toBe(200);
  });

  it('answers 403 FORBIDDEN to a sidecar key on routes it may not use', async () => {
    const { token } = await t.issueToken(account.accountId, 'sidecar');
    for (const [method, url] of [
      ['GET', '/v2/webhooks'],
      ['POST', '/v2/webhooks'],
      ['GET', '/v2/accounts'],
    ] as const) {
      const res = await t.call(method, url, { token, body: method === 'POST' ? { data: [] } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', description: expect.any(String) });
    }
  });

  it('keeps partner routes to the partner key and account routes to account tokens', async () => {
    expectUnauthorized(await t.call('GET', '/v2/accounts', { token: account.token }));
    expectUnauthorized(await t.call('GET', '/v2/webhooks', { token: t.partnerKey }));
    expect((await t.call('GET', '/v2/accounts', { token: t.partnerKey })).statusCode).toBe(200);
  });

  it('never returns or stores a token secret after issuing it', async () => {
    const { token } = await t.issueToken(account.accountId, 'client');
    const list = await t.call('GET', `/v2/accounts/${account.accountId}/tokens`, { token: t.partnerKey });
    expect(list.statusCode).toBe(200);
    // mgw_<32 hex of the id>_<secret>: the secret is base64url and may itself hold '_'.
    const secret = token.slice('mgw_'.length + 33);
    expect(secret).toHaveLength(43);
    expect(list.body).not.toContain(secret);
    const rows = await t.gateway.database.db.selectFrom('api_tokens').select('secret_hash').execute();
    expect(rows.map((r) => r.secret_hash)).not.toContain(secret);
  });
});
