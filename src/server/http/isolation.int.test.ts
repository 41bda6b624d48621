import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`account isolation (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let bSubscriptionId: string;

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    const res = await t.call('POST', '/v2/webhooks', {
      token: b.token,
      body: { data: [{ url: 'https://crm-b.example.com/hook', event: 'message.add' }] },
    });
    expect(res.statusCode).toBe(201);
    bSubscriptionId = res.json().data[0].id;
  });
  afterAll(() => t.close());

  it("does not list another account's subscriptions", async () => {
    const res = await t.call('GET', '/v2/webhooks', { token: a.token });
    expect(res.json().data).toEqual([]);
  });

  it("reports another account's subscription as not found when changed or deleted, never forbidden", async () => {
    const patch = await t.call('PATCH', '/v2/webhooks', {
      token: a.token,
      body: { data: [{ id: bSubscriptionId, url: 'https://evil.example.com/', event: 'message.add' }] },
    });
    expect(patch.statusCode).toBe(404);
    expect(patch.json().error).toBe('WEBHOOK_NOT_FOUND');

    const del = await t.call('DELETE', '/v2/webhooks', { token: a.token, body: { data: [{ id: bSubscriptionId }] } });
    expect(del.statusCode).toBe(404);
    expect(del.json().error).toBe('WEBHOOK_NOT_FOUND');

    const own = await t.call('GET', '/v2/webhooks', { token: b.token });
    expect(own.json().data).toEqual([{ id: bSubscriptionId, url: 'https://crm-b.example.com/hook', event: 'message.add', status: 'active', disabled_reason: null }]);
  });

  it("reports a token of another account as not found to the partner", async () => {
    const { tokenId } = await t.issueToken(b.accountId, 'client');
    const res = await t.call('DELETE', `/v2/accounts/${a.accountId}/tokens/${tokenId}`, { token: t.partnerKey });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('TOKEN_NOT_FOUND');
  });
});
