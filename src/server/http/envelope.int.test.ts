import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`the envelope on every success (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.UTC(2031, 4, 6, 7, 8, 9, 500));
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
  });
  afterAll(() => t.close());

  const expectEnvelope = (res: { statusCode: number; json(): Record<string, unknown> }, status: number) => {
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    expect(body.meta).toEqual({ timestamp: Math.floor(clock.now().getTime() / 1000) });
    return body.data as never;
  };

  it('wraps every successful call of every route in {data, meta: {timestamp}} with the documented status', async () => {
    const partner = t.partnerKey;
    const account = expectEnvelope(await t.call('POST', '/v2/accounts', { token: partner, body: { name: 'Acme' } }), 201) as {
      account_id: string;
      name: string;
    };
    expect(account).toEqual({ account_id: expect.any(String), name: 'Acme', account: { account_id: expect.any(Number), name: 'Acme' } });
    expect(expectEnvelope(await t.call('GET', '/v2/accounts', { token: partner }), 200)).toContainEqual(account);

    const issued = expectEnvelope(
      await t.call('POST', `/v2/accounts/${account.account_id}/tokens`, { token: partner, body: { kind: 'client', name: 'crm' } }),
      201,
    ) as { token_id: string; token: string; kind: string; name: string };
    expect(issued).toMatchObject({ kind: 'client', name: 'crm' });
    const tokens = expectEnvelope(await t.call('GET', `/v2/accounts/${account.account_id}/tokens`, { token: partner }), 200);
    expect(tokens).toEqual([
      { token_id: issued.token_id, kind: 'client', name: 'crm', created_at: clock.now().toISOString(), revoked_at: null },
    ]);

    const token = issued.token;
    expect(expectEnvelope(await t.call('GET', '/v2/webhooks', { token }), 200)).toEqual([]);
    const created = expectEnvelope(
      await t.call('POST', '/v2/webhooks', {
        token,
        body: {
          data: [
            { url: 'https://crm.example.com/in', event: 'message.add' },
            { url: 'https://crm.example.com/status', event: 'channel.update' },
          ],
        },
      }),
      201,
    ) as { id: string; url: string; event: string }[];
    // The deprecated alias is stored as what it means.
    expect(created.map((s) => s.event)).toEqual(['message.add', 'channel.status_update']);

    const changed = expectEnvelope(
      await t.call('PATCH', '/v2/webhooks', {
        token,
        body: { data: [{ id: created[0]!.id, url: 'https://crm.example.com/v2/in', event: 'message.status_update' }] },
      }),
      200,
    );
    expect(changed).toEqual([
      { id: created[0]!.id, url: 'https://crm.example.com/v2/in', event: 'message.status_update', status: 'active', disabled_reason: null },
    ]);
    expect(expectEnvelope(await t.call('DELETE', '/v2/webhooks', { token, body: { data: [{ id: created[1]!.id }] } }), 200)).toBeNull();
    expect(expectEnvelope(await t.call('GET', '/v2/webhooks', { token }), 200)).toEqual(changed);

    expect(
      expectEnvelope(await t.call('DELETE', `/v2/accounts/${account.account_id}/tokens/${issued.token_id}`, { token: partner }), 200),
    ).toBeNull();
  });
});
