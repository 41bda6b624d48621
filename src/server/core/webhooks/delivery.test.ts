import { describe, expect, it } from 'vitest';
import { envelopeOf, judge } from './delivery.ts';
import type { ClaimedWork } from './ports.ts';

const now = new Date(Date.UTC(2030, 0, 10));
const mid = () => 0.5;
const work = (attempts = 0, failingSince: Date | null = null): ClaimedWork => ({
  subscription: { id: 's', accountId: 'a', url: 'https://crm.example.com/h', failingSince, face: 'v2' },
  signing: null,
  endpoint: 'x',
  lanes: ['chat:1'],
  key: 'e1',
  eventName: 'message.add',
  items: [{ deliveryId: 'd1', eventId: 'e1', payload: { text: 'hi' }, createdAt: new Date(Date.UTC(2030, 0, 9, 12)), attempts }],
  underHeadLease: false,
});
const status = (code: number, retryAfter: string | null = null) => ({ status: code, retryAfter, latencyMs: 5 });

describe('what an answer means', () => {
  it('takes any 2xx as delivered', () => {
    for (const code of [200, 201, 202, 204, 299]) expect(judge(work(), status(code), now, mid).outcome).toBe('delivered');
  });

  it('retries everything else, redirects included, on the schedule', () => {
    expect(judge(work(), status(302), now, mid)).toMatchObject({
      outcome: 'retry',
      error: 'HTTP 302: redirects are not followed',
      nextAttemptAt: new Date(now.getTime() + 5_000),
    });
    expect(judge(work(1), status(500), now, mid)).toMatchObject({ outcome: 'retry', error: 'HTTP 500', nextAttemptAt: new Date(now.getTime() + 300_000) });
    expect(judge(work(), { error: 'no answer within 15 s', latencyMs: 15_000 }, now, mid)).toMatchObject({ outcome: 'retry', statusCode: null });
  });

  it('honours Retry-After on 429 and 503 only', () => {
    expect(judge(work(), status(429, '600'), now, mid).nextAttemptAt).toEqual(new Date(now.getTime() + 600_000));
    expect(judge(work(), status(503, '600'), now, mid).nextAttemptAt).toEqual(new Date(now.getTime() + 600_000));
    expect(judge(work(), status(500, '600'), now, mid).nextAttemptAt).toEqual(new Date(now.getTime() + 5_000));
  });

  it('gives up after the eighth attempt', () => {
    expect(judge(work(7), status(500), now, mid)).toMatchObject({ outcome: 'failed', nextAttemptAt: null });
  });

  it('disables on 410, and after 5 days of failures without a success', () => {
    expect(judge(work(), status(410), now, mid)).toMatchObject({ outcome: 'disabled', disabledReason: 'the endpoint answered 410 Gone' });
    const almost = new Date(now.getTime() - 5 * 86_400_000 + 1000);
    expect(judge(work(2, almost), status(500), now, mid).outcome).toBe('retry');
    const judged = judge(work(2, new Date(now.getTime() - 5 * 86_400_000)), status(500), now, mid);
    expect(judged.outcome).toBe('disabled');
    expect(judged.disabledReason).toContain('5 days');
  });
});

describe('the envelope', () => {
  it('carries the data as an array, the key and the event time', () => {
    expect(JSON.parse(envelopeOf(work()))).toEqual({
      event: 'message.add',
      data: [{ text: 'hi' }],
      meta: { idempotency_key: 'e1', timestamp: Date.UTC(2030, 0, 9, 12) / 1000 },
    });
  });

  it('passes a payload that is already a list through, and joins a batch in order', () => {
    const batch: ClaimedWork = {
      ...work(),
      key: 'b1',
      items: [
        { deliveryId: 'd1', eventId: 'e1', payload: [{ group_id: 'g1' }, { group_id: 'g2' }], createdAt: new Date(2000), attempts: 0 },
        { deliveryId: 'd2', eventId: 'e2', payload: { group_id: 'g3' }, createdAt: new Date(1000), attempts: 0 },
      ],
    };
    expect(JSON.parse(envelopeOf(batch))).toEqual({
      event: 'message.add',
      data: [{ group_id: 'g1' }, { group_id: 'g2' }, { group_id: 'g3' }],
      meta: { idempotency_key: 'b1', timestamp: 1 },
    });
  });
});
