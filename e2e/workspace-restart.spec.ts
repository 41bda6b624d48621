import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, type FrameLocator } from '@playwright/test';
import { api, recordingPage, whatsappChannel, whatsappCustomerWrites as customerWrites, startCrmPage, type CrmPage } from './crm-page.ts';
import { expect, freePort, startGatewayOn, type KillableGateway } from './fixtures.ts';

/**
 * The gateway process restarts (stopped, or killed, and started again on the same database and port) while an
 * agent has a chat open: the frame says it is offline, reconnects by itself with the session it had, catches up
 * with what came while it was away, and shows what the customer writes next within a bound.
 *
 * The bound: the frame retries its connection at most `reconnectionDelayMax` (3 s, src/widget/lib/socket.ts) apart,
 * so a message accepted by the restarted gateway shows within that wait, one handshake and one catch-up read;
 * 10 s leaves room for a loaded two-core machine.
 */
const SHOWN_WITHIN_MS = 10_000;

interface Restartable {
  gateway(): KillableGateway;
  baseURL: string;
  /** Stops the process with the signal, then starts it again on the same data directory and port. */
  restart(signal: 'SIGTERM' | 'SIGKILL', meanwhile?: () => Promise<void>): Promise<void>;
}

const test = base.extend<{ token: string }, { restartable: Restartable }>({
  restartable: [
    async ({}, use) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'gateway-e2e-restart-'));
      const port = await freePort();
      let current = await startGatewayOn(dataDir, port);
      await use({
        gateway: () => current,
        baseURL: current.baseURL,
        async restart(signal, meanwhile) {
          await current.kill(signal);
          await meanwhile?.();
          current = await startGatewayOn(dataDir, port);
        },
      });
      await current.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ restartable }, use) => use(restartable.baseURL),
  // The demo account and its token are kept in the database: the same token works after every restart.
  token: async ({ restartable }, use) => use(restartable.gateway().token),
});

let crm: CrmPage;
test.beforeAll(async () => {
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

const rows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
const messages = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages' }).getByRole('listitem');
const offline = (frame: FrameLocator) => frame.getByRole('status').filter({ hasText: 'Offline: reconnecting…' });

test('an open chat shows what the customer writes across three gateway restarts, nothing lost', async ({ page, context, request, token, restartable }, testInfo) => {
  // About 20 s on a quiet machine; three gateway starts take 10-18 s each on a loaded two-core one.
  test.setTimeout(180_000);
  const channelId = await whatsappChannel(request, token);
  // A chat of its own on each run (`--repeat-each` keeps the worker's gateway).
  const chat = `7900123${String(testInfo.repeatEachIndex * 10 + testInfo.retry).padStart(4, '0')}`;
  const customer = `Nina Frost ${chat.slice(-4)}`;
  await customerWrites(request, token, channelId, chat, customer, 'Is my order on its way?');
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global' })).url);
  await page.setViewportSize({ width: 960, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  const frame = page.frameLocator('#widget');
  await rows(frame).filter({ hasText: customer }).getByRole('button').first().click();
  await expect(messages(frame)).toHaveCount(1);

  const rounds = [
    { signal: 'SIGTERM', frameOffline: false },
    { signal: 'SIGKILL', frameOffline: false },
    // The frame's own network is down across this restart too: what the customer writes meanwhile can only come
    // by the catch-up of the reconnection, not live.
    { signal: 'SIGKILL', frameOffline: true },
  ] as const;
  const timings: string[] = [];
  let shown = 1;
  for (const [i, round] of rounds.entries()) {
    const n = i + 1;
    const started = Date.now();
    if (round.frameOffline) await context.setOffline(true);
    await restartable.restart(round.signal, async () => {
      await expect(offline(frame)).toBeVisible();
    });
    const up = Date.now();
    // Accepted by the restarted gateway at once, before the frame can have reconnected when its network is down.
    await customerWrites(request, token, channelId, chat, customer, `Round ${n}: are you there?`);
    const meanwhile = Date.now();
    const wasOffline = await offline(frame).isVisible();
    if (round.frameOffline) {
      expect(wasOffline).toBe(true);
      await context.setOffline(false);
    }
    await expect(messages(frame).filter({ hasText: `Round ${n}: are you there?` })).toBeVisible({ timeout: SHOWN_WITHIN_MS });
    const caughtUp = Date.now();
    await expect(offline(frame)).toHaveCount(0);

    // Connected again: what the customer writes now arrives live.
    await customerWrites(request, token, channelId, chat, customer, `Round ${n}: hello again`);
    const sent = Date.now();
    await expect(messages(frame).filter({ hasText: `Round ${n}: hello again` })).toBeVisible({ timeout: SHOWN_WITHIN_MS });
    const live = Date.now();
    shown += 2;
    // Each message once: the catch-up and the live push do not repeat one.
    await expect(messages(frame)).toHaveCount(shown);
    await expect(rows(frame).filter({ hasText: customer })).toContainText(`Round ${n}: hello again`);
    timings.push(
      `restart ${n} (${round.signal}${round.frameOffline ? ', frame offline' : ''}): down and up ${up - started} ms; ` +
        `written meanwhile shown ${caughtUp - meanwhile} ms after it was accepted (frame ${wasOffline ? 'still offline' : 'already back'}); ` +
        `next message live in ${live - sent} ms`,
    );
  }
  testInfo.annotations.push(...timings.map((description) => ({ type: 'timing', description })));
  console.log(timings.join('\n'));
});
