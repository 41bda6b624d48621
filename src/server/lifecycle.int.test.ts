import { describe, expect, it } from 'vitest';
import { recordEvent } from './core/events/record-event.ts';
import { systemClock } from './core/ports.ts';
import { startTestGateway } from './testing/harness.ts';
import { databaseKind } from './testing/test-database.ts';

/** A promise with its resolver, to hold a piece of work open until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe(`lifecycle (${databaseKind()})`, () => {
  it('reports liveness and readiness, then drains requests and jobs on stop', async () => {
    const jobEntered = gate();
    const releaseJob = gate();
    const order: string[] = [];
    const t = await startTestGateway({
      sinks: [
        {
          name: 'slow',
          consume: async () => {
            jobEntered.open();
            await releaseJob.opened;
            order.push('job finished');
          },
        },
      ],
    });
    const { accountId, token } = await t.newAccount();
    const base = await t.gateway.app.listen({ port: 0, host: '127.0.0.1' });

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });

    // A job in flight...
    await t.gateway.store.transaction((tx) => recordEvent(tx, systemClock, { accountId, name: 'channel.create', orderingKey: null, payload: {} }));
    await jobEntered.opened;

    // ...and a request in flight.
    const requestEntered = gate();
    const releaseRequest = gate();
    const webhooks = t.gateway.store.webhooks;
    const list = webhooks.list;
    webhooks.list = async (id) => {
      requestEntered.open();
      await releaseRequest.opened;
      return list(id);
    };
    const inFlight = fetch(`${base}/v2/webhooks`, { headers: { authorization: `Bearer ${token}` } }).then((r) => {
      order.push(`request answered ${r.status}`);
      return r;
    });
    await requestEntered.opened;

    const stopped = t.close().then(() => order.push('stopped'));
    // Stop must wait for both; give it the chance to return early before letting them finish.
    await new Promise((r) => setTimeout(r, 200));
    order.push('released');
    releaseRequest.open();
    releaseJob.open();
    await stopped;
    expect((await inFlight).status).toBe(200);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    expect(order[0]).toBe('released');
    expect(order.indexOf('stopped')).toBe(order.length - 1);
    expect(order).toEqual(expect.arrayContaining(['job finished', 'request answered 200', 'stopped']));
  });
});
