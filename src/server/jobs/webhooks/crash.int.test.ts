import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { version as uuidVersion } from 'uuid';
import { createTestDatabase, databaseKind } from '../../testing/test-database.ts';
import { eventually } from '../../testing/webhook-driver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';

const entry = fileURLToPath(new URL('../../testing/gateway-with-feed.ts', import.meta.url));

interface Child {
  process: ChildProcess;
  address: string;
  record(events: { accountId: string; name: string; orderingKey: string; payload: unknown }[], together: boolean): Promise<string[]>;
}

async function startChild(env: Record<string, string>): Promise<Child> {
  const child = fork(entry, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let tag = 0;
  const waiting = new Map<number, (ids: string[]) => void>();
  const ready = new Promise<string>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`gateway exited before it was ready (${code ?? signal})`)));
    child.on('message', (m: { ready?: string; recorded?: string[]; tag?: number }) => {
      if (m.ready) resolve(m.ready);
      if (m.recorded && m.tag !== undefined) waiting.get(m.tag)?.(m.recorded);
    });
  });
  return {
    process: child,
    address: await ready,
    record: (events, together) =>
      new Promise((resolve) => {
        const mine = ++tag;
        waiting.set(mine, resolve);
        child.send({ record: events, tag: mine, together });
      }),
  };
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe(`a gateway killed with deliveries in flight (${databaseKind()})`, () => {
  /** The current test's receiver. */
  let receiver: WebhookReceiver | null = null;
  const children: ChildProcess[] = [];
  const cleanUps: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(children.map(exited));
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });

  /**
   * Records 60 events in six chats, kills the gateway with attempts in flight, starts another on the same
   * database, and waits for every event. Returns what the receiver saw, and which keys it saw before the kill.
   */
  async function crashAndRestart(batching: boolean): Promise<{ ids: string[]; seenBeforeKill: Set<string>; second: Child }> {
    const dataDir = await mkdtemp(join(tmpdir(), 'gw-crash-'));
    cleanUps.push(() => rm(dataDir, { recursive: true, force: true }));
    const database = await createTestDatabase();
    cleanUps.push(() => database.drop());
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PARTNER_API_KEY: randomBytes(24).toString('base64url'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.target.kind === 'postgres' ? database.target.url : '',
    };
    // Slow answers keep attempts in flight when the kill comes.
    const current = await startWebhookReceiver(() => ({ status: 200, delayMs: 150 }));
    cleanUps.push(() => current.close());
    receiver = current;

    const first = await startChild(env);
    children.push(first.process);
    const api = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${first.address}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(res.status).toBeLessThan(300);
      return ((await res.json()) as { data: Record<string, string> }).data;
    };
    const { account_id: accountId } = await api('POST', '/v2/accounts', env.PARTNER_API_KEY!, { name: 'Crash' });
    const { token } = await api('POST', `/v2/accounts/${accountId}/tokens`, env.PARTNER_API_KEY!, { kind: 'client' });
    await api('POST', '/v2/webhooks', token!, { data: [{ url: receiver.url, event: 'message.add' }] });
    if (batching) await api('PATCH', '/v2/webhooks/settings', token!, { batching: true });

    const events = Array.from({ length: 10 }, (_, n) =>
      chats.map((chat) => ({ accountId: accountId!, name: 'message.add', orderingKey: `chat:x:${chat}`, payload: { chat, n } })),
    ).flat();
    // Batched, the events are recorded at once: one by one, a claim may find each chat's head alone and the
    // chats stay out of step, so that no POST would carry two events and batching would go untested.
    const ids = await first.record(events, batching);
    await eventually(() => receiver!.requests.length >= (batching ? 3 : 8) && receiver!.inFlight() > 0, 30_000);
    const inFlightAtKill = receiver.inFlight();
    first.process.kill('SIGKILL');
    await exited(first.process);
    const seenBeforeKill = new Set(receiver.requests.map((q) => q.json.meta.idempotency_key));
    // Some attempts were in flight, and some events still queued, when the process died.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(eventsIn(receiver.requests).size).toBeLessThan(ids.length);

    const second = await startChild(env);
    children.push(second.process);
    await eventually(() => eventsIn(receiver!.requests.filter((q) => q.status === 200)).size === ids.length, 120_000);
    return { ids, seenBeforeKill, second };
  }

  const chats = ['a', 'b', 'c', 'd', 'e', 'f'];
  type Item = { chat: string; n: number };
  const eventsIn = (requests: WebhookReceiver['requests']) => new Set(requests.flatMap((q) => (q.json.data as Item[]).map((i) => `${i.chat}${i.n}`)));

  /** Each event first arrives after every earlier one of its chat. */
  function expectOrderPerChat() {
    for (const chat of chats) {
      const firstArrivals: number[] = [];
      for (const q of receiver!.requests) {
        for (const item of q.json.data as Item[]) if (item.chat === chat && !firstArrivals.includes(item.n)) firstArrivals.push(item.n);
      }
      expect(firstArrivals).toEqual([...Array(10).keys()]);
    }
  }

  /** Repeats only of attempts made before the kill. */
  function expectRepeatsOnlyOf(seenBeforeKill: Set<string>) {
    const counts = new Map<string, number>();
    for (const q of receiver!.requests) counts.set(q.json.meta.idempotency_key, (counts.get(q.json.meta.idempotency_key) ?? 0) + 1);
    for (const [key, n] of counts) if (n > 1) expect(seenBeforeKill.has(key), `repeated ${key}`).toBe(true);
  }

  it('delivers every event after a restart, in order per chat, repeating only attempts whose answer was lost', { timeout: 150_000 }, async () => {
    const { ids, seenBeforeKill, second } = await crashAndRestart(false);
    const ok = new Set(receiver!.requests.filter((q) => q.status === 200).map((q) => q.json.meta.idempotency_key));
    expect([...ok].sort()).toEqual([...ids].sort());
    expectRepeatsOnlyOf(seenBeforeKill);
    expectOrderPerChat();
    second.process.kill('SIGTERM');
    await exited(second.process);
  });

  it('delivers every event of batched runs after a restart, in order per chat, each repeated batch under its key with the same body', { timeout: 150_000 }, async () => {
    const { seenBeforeKill, second } = await crashAndRestart(true);
    expect(receiver!.requests.some((q) => q.json.data.length > 1)).toBe(true);
    expectRepeatsOnlyOf(seenBeforeKill);
    // A key names one body: what was sent before the kill went again as it was.
    const bodies = new Map<string, Set<string>>();
    for (const q of receiver!.requests) bodies.set(q.json.meta.idempotency_key, (bodies.get(q.json.meta.idempotency_key) ?? new Set()).add(q.body));
    for (const [key, sent] of bodies) expect(sent.size, `bodies under ${key}`).toBe(1);
    for (const key of bodies.keys()) expect(uuidVersion(key), `version of ${key}`).toBe(4);
    // And an event sent again went under the key it had.
    const keysOf = new Map<string, Set<string>>();
    for (const q of receiver!.requests) {
      for (const i of q.json.data as Item[]) keysOf.set(`${i.chat}${i.n}`, (keysOf.get(`${i.chat}${i.n}`) ?? new Set()).add(q.json.meta.idempotency_key));
    }
    for (const [event, keys] of keysOf) expect(keys.size, `keys of ${event}`).toBe(1);
    expect([...bodies.keys()].filter((key) => seenBeforeKill.has(key) && receiver!.requests.filter((q) => q.json.meta.idempotency_key === key).length > 1).length).toBeGreaterThan(0);
    expectOrderPerChat();
    second.process.kill('SIGTERM');
    await exited(second.process);
  });
});
