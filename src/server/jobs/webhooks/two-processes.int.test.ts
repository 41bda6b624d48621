import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { recordEvent } from '../../core/events/record-event.ts';
import { systemClock } from '../../core/ports.ts';
import type { WebhookSender } from '../../core/webhooks/delivery.ts';
import { createGateway, type Gateway } from '../../gateway.ts';
import { staticResolver } from '../../testing/static-resolver.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../testing/test-database.ts';
import { eventually } from '../../testing/webhook-driver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';
import { httpWebhookSender } from './http-sender.ts';

/** The real HTTP sender, with a header naming the gateway that sent, so the receiver can tell them apart. */
function taggedSender(name: string): WebhookSender & { close(): Promise<void> } {
  const inner = httpWebhookSender({ policy: { allowLoopback: true }, resolveHost: staticResolver() });
  return { post: (request) => inner.post({ ...request, headers: { ...request.headers, 'x-sent-by': name } }), close: () => inner.close() };
}

// Two processes share one database only on PostgreSQL; the embedded database belongs to one process.
describe.skipIf(databaseKind() !== 'postgres')('two gateways delivering from one database', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  const gateways: Gateway[] = [];
  const senders: { close(): Promise<void> }[] = [];
  const dirs: string[] = [];
  const partnerKey = randomBytes(24).toString('base64url');
  // Processes of one deployment share the key that seals the signing secrets.
  const secretKey = randomBytes(32).toString('base64url');
  const inFlightPerChat = new Map<string, number>();
  let overlap = false;

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver((req) => {
      for (const { chat } of req.json.data as { chat: string }[]) {
        const n = (inFlightPerChat.get(chat) ?? 0) + 1;
        if (n > 1) overlap = true;
        inFlightPerChat.set(chat, n);
        setTimeout(() => inFlightPerChat.set(chat, (inFlightPerChat.get(chat) ?? 1) - 1), 40);
      }
      return { status: 200, delayMs: 40 };
    });
    for (const name of ['one', 'two']) {
      const dir = await mkdtemp(join(tmpdir(), 'gw-two-'));
      dirs.push(dir);
      const sender = taggedSender(name);
      senders.push(sender);
      const config = loadConfig({ DATA_DIR: dir, PARTNER_API_KEY: partnerKey, SECRET_KEY: secretKey, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_LOOPBACK: 'true' });
      // One attempt at a time per process, and batches of two chats (one batch could carry every lane): the other
      // process has to take its share of the lanes.
      gateways.push(
        await createGateway(config, {
          logger: false,
          widgetDir: null,
          database: database.target,
          webhooks: { sender, perEndpoint: 1, batchLimit: 2, sweepIntervalMs: 0 },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const g of gateways) await g.stop();
    for (const s of senders) await s.close();
    await receiver?.close();
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const call = async (method: 'POST' | 'PATCH', url: string, token: string, payload: object) => {
    const res = await gateways[0]!.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
    expect(res.statusCode).toBeLessThan(300);
    return res.json().data;
  };

  it.each([false, true])('delivers every event once, in order per chat, never two at once in a chat (batching %s)', { timeout: 60_000 }, async (batching) => {
    const { account_id: accountId } = await call('POST', '/v2/accounts', partnerKey, { name: 'Two' });
    const { token } = await call('POST', `/v2/accounts/${accountId}/tokens`, partnerKey, { kind: 'client' });
    await call('PATCH', '/v2/webhooks/settings', token, { batching });
    await call('POST', '/v2/webhooks', token, { data: [{ url: receiver.url, event: 'message.add' }] });
    const before = receiver.requests.length;

    const chats = Array.from({ length: 8 }, (_, i) => `${batching ? 'b' : 'u'}${i}`);
    const ids: string[] = [];
    // Each chat's events are recorded alternately through both processes, so both fan out and both claim.
    for (let n = 0; n < 8; n++) {
      for (const [i, chat] of chats.entries()) {
        const through = gateways[(n + i) % 2]!;
        const event = await through.store.transaction((tx) =>
          recordEvent(tx, systemClock, { accountId, name: 'message.add', orderingKey: `chat:two:${chat}`, payload: { chat, n } }),
        );
        ids.push(event.id);
      }
    }
    const mine = () => receiver.requests.slice(before);
    const items = () => mine().flatMap((q) => q.json.data as { chat: string; n: number }[]);
    await eventually(() => items().length >= ids.length, 45_000);

    expect(overlap).toBe(false);
    expect(items()).toHaveLength(ids.length);
    for (const chat of chats) {
      expect(items().filter((i) => i.chat === chat).map((i) => i.n)).toEqual([...Array(8).keys()]);
    }
    const senders = new Set(mine().map((q) => q.headers['x-sent-by']));
    expect(senders).toEqual(new Set(['one', 'two']));
    if (batching) expect(mine().some((q) => q.json.data.length > 1)).toBe(true);
  });
});
