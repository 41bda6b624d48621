import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`rate limit: 500 requests per 5-second window per token (${databaseKind()})`, () => {
  // 1.2 s into a window, so 3.8 s remain: Retry-After rounds up to 4.
  const windowStart = Date.UTC(2032, 0, 1, 0, 0, 0);
  const clock = new ManualClock(windowStart + 1_200);
  let t: TestGateway;
  let a: string;
  let b: string;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    a = (await t.newAccount('A')).token;
    b = (await t.newAccount('B')).token;
  });
  afterAll(() => t.close());

  it('lets 500 through, refuses the 501st with 429 and its headers, and opens again in the next window', async () => {
    for (let i = 1; i <= 500; i++) {
      const res = await t.call('GET', '/v2/webhooks', { token: a });
      if (res.statusCode !== 200) throw new Error(`request ${i} answered ${res.statusCode}`);
      if (i === 1 || i === 500) {
        expect(res.headers['ratelimit-policy']).toBe('"default";q=500;w=5');
        expect(res.headers.ratelimit).toBe(`"default";r=${500 - i};t=4`);
      }
    }
    const refused = await t.call('GET', '/v2/webhooks', { token: a });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'TOO_MANY_REQUESTS', description: expect.any(String) });
    expect(refused.headers['retry-after']).toBe('4');
    expect(refused.headers['ratelimit-policy']).toBe('"default";q=500;w=5');
    expect(refused.headers.ratelimit).toBe('"default";r=0;t=4');

    // Another token has its own count.
    expect((await t.call('GET', '/v2/webhooks', { token: b })).statusCode).toBe(200);

    // Still the same window 3.7 s later.
    clock.advance(3_700);
    expect((await t.call('GET', '/v2/webhooks', { token: a })).statusCode).toBe(429);

    // The window resets on the 5-second boundary.
    clock.set(windowStart + 5_000);
    const reopened = await t.call('GET', '/v2/webhooks', { token: a });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.headers.ratelimit).toBe('"default";r=499;t=5');
  });
});
