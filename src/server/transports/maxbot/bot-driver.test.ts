import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientSendError, type OutboundMessage } from '../../core/messages/ports.ts';
import { startMaxEmulator, type MaxEmulator } from '../../testing/max-emulator.ts';
import { callPacer } from '../call-pacer.ts';
import { connectMaxBot, maxBotMessaging, type MaxBotDeps } from './bot-driver.ts';

/** Nothing listens here: these cases must not reach MAX at all. */
const deps: MaxBotDeps = {
  apiUrl: 'http://127.0.0.1:1',
  publicUrl: 'https://gw.example.com',
  cipher: { seal: (c) => JSON.stringify(c), open: (s) => JSON.parse(s) as Record<string, unknown> },
  hookSecret: (id) => `secret-${id}`,
};

describe('the max-bot driver, before it asks MAX', () => {
  it('refuses a token that could not be one by its field', async () => {
    for (const token of ['short', 'has spaces in the middle of it', 'line\nbreak-in-a-token-of-length']) {
      expect(await connectMaxBot(deps, 'c1', token)).toMatchObject({ kind: 'refused', field: 'access_token' });
    }
  });

  it('fails a send to a customer known only by name or phone: bots cannot write first', async () => {
    const message: OutboundMessage = {
      requestId: 'r1',
      channelId: 'c1',
      transport: 'maxbot',
      chatType: 'max',
      chatId: null,
      username: 'anna_k',
      phone: null,
      text: 'Hello',
      attachment: null,
      template: null,
      keyboard: null,
      quotedMessengerId: null,
      sealedCredentials: JSON.stringify({ access_token: 'a'.repeat(30) }),
    };
    expect(await maxBotMessaging(deps).send(message)).toEqual({ kind: 'failed', reason: 'contact_can_not_create' });
  });
});

describe('the max-bot driver’s sends, against a local MAX', () => {
  let max: MaxEmulator;
  let slow: Server;
  let slowUrl: string;
  const token = 'driver-test-token-0123456789';
  const customer = 4242;

  beforeAll(async () => {
    max = await startMaxEmulator();
    max.addBot(token, { user_id: 1, first_name: 'Bot', username: 'bot' });
    max.wroteTo(customer);
    // A file that trickles in: a byte every 100 ms, never done (each wait is short, the whole is not).
    slow = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/offer.pdf`;
  });
  afterAll(async () => {
    slow.closeAllConnections();
    await new Promise((resolve) => slow.close(resolve));
    await max.close();
  });

  const live = (extra: Partial<MaxBotDeps> = {}): MaxBotDeps => ({ ...deps, apiUrl: max.url, allowLoopbackFiles: true, ...extra });
  const to = (content: Partial<OutboundMessage>): OutboundMessage => ({
    requestId: 'r',
    channelId: 'c1',
    transport: 'maxbot',
    chatType: 'max',
    chatId: String(customer),
    username: null,
    phone: null,
    text: null,
    attachment: null,
    template: null,
    keyboard: null,
    quotedMessengerId: null,
    sealedCredentials: JSON.stringify({ access_token: token }),
    ...content,
  });

  it('gives a send up at its deadline, however slowly its file keeps coming, for a later try', async () => {
    const started = Date.now();
    const outcome = maxBotMessaging(live({ sendBudgetMs: 600 })).send(to({ attachment: { url: slowUrl } }));
    await expect(outcome).rejects.toBeInstanceOf(TransientSendError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts the pacer’s waits in the deadline', async () => {
    // One send into a chat each 1.5 s: the second waits for its turn past its deadline, and is given up then.
    const pacer = callPacer({ bot: { limit: 25, interval: 1000 }, chat: { limit: 1, interval: 1500 } }, () => true);
    const driver = maxBotMessaging(live({ sendBudgetMs: 600 }), pacer);
    expect(await driver.send(to({ text: 'first' }))).toMatchObject({ kind: 'sent' });
    const before = max.calls.length;
    const started = Date.now();
    await expect(driver.send(to({ text: 'second' }))).rejects.toBeInstanceOf(TransientSendError);
    expect(Date.now() - started).toBeLessThan(1200);
    // Its turn comes later, and it is not made then either.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(max.calls.length).toBe(before);
  });

  it('fails a file over the limit as bad content, and a text over MAX’s 4000 characters before asking MAX', async () => {
    const big = max.hostFile('big.pdf', Buffer.alloc(2048), 'application/pdf');
    expect(await maxBotMessaging(live({ fileLimitBytes: 1024 })).send(to({ attachment: { url: big } }))).toEqual({ kind: 'failed', reason: 'bad_content' });
    const before = max.calls.length;
    expect(await maxBotMessaging(live()).send(to({ text: 'я'.repeat(4001) }))).toEqual({ kind: 'failed', reason: 'text_length_is_too_much' });
    expect(await maxBotMessaging(live()).send(to({ text: '😀'.repeat(4000) }))).toMatchObject({ kind: 'sent' });
    expect(max.calls.length).toBe(before + 1);
  });
});
