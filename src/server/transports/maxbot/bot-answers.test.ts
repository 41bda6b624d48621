import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { startMaxEmulator, type MaxEmulator } from '../../testing/max-emulator.ts';
import { callPacer } from '../call-pacer.ts';
import { pressAnswerer, type AnswerFailure } from './bot-answers.ts';
import type { PressAnswer } from './bot-hook.ts';
import { maxLimits } from './bot-driver.ts';

const TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_answers';
const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };
const channelOf = (fields: Partial<ChannelRecord> = {}) =>
  ({ id: 'c1', transport: 'maxbot', state: { status: 'active', reason: null }, credentials: cipher.seal({ access_token: TOKEN }), ...fields }) as ChannelRecord;
const active = { getById: async () => channelOf() };

describe('answers to button presses', () => {
  let max: MaxEmulator;
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    max = await startMaxEmulator();
    max.addBot(TOKEN, { user_id: 10002, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    // Takes the request and never answers.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await max?.close();
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
  });

  const pressed = (fields: Partial<PressAnswer> = {}): PressAnswer => ({ callbackId: max.issueCallback(TOKEN), chatId: '7001', notification: 'Да', ...fields });
  const answersTo = (callbackId: string) => max.calls.filter((c) => c.path === '/answers' && c.query.callback_id === callbackId);
  /** The reasons an answerer gave for presses it left unanswered. */
  const failures = () => {
    const said: AnswerFailure[] = [];
    return { said, failed: (reason: AnswerFailure) => void said.push(reason) };
  };

  it('answers with the notification, by the press’s id, with the channel’s token', async () => {
    const press = pressed();
    const { said, failed } = failures();
    await pressAnswerer({ apiUrl: max.url, cipher, channels: active, pacer: callPacer(maxLimits, () => true), failed })('c1', press);
    expect(answersTo(press.callbackId)).toEqual([expect.objectContaining({ token: TOKEN, method: 'POST', query: { callback_id: press.callbackId }, body: { notification: 'Да' } })]);
    expect(said).toEqual([]);
  });

  it('does not answer for a channel that is off, of another transport, or without a token', async () => {
    const before = max.calls.length;
    const { said, failed } = failures();
    for (const channel of [undefined, channelOf({ state: { status: 'disabled', reason: 'unauthorized' } as ChannelRecord['state'] }), channelOf({ transport: 'telegram' }), channelOf({ credentials: null })]) {
      await pressAnswerer({ apiUrl: max.url, cipher, channels: { getById: async () => channel }, failed })('c1', pressed());
    }
    expect(max.calls.length).toBe(before);
    expect(said).toEqual([]);
  });

  it('answers a press MAX sends again once, and takes MAX’s refusal of a second answer without trying again', async () => {
    const press = pressed();
    const { said, failed } = failures();
    const answer = pressAnswerer({ apiUrl: max.url, cipher, channels: active, failed });
    await answer('c1', press);
    await answer('c1', press);
    expect(answersTo(press.callbackId)).toHaveLength(1);
    // Another process (or this one after a restart) does not know it was answered: MAX refuses, once, and that is all.
    await pressAnswerer({ apiUrl: max.url, cipher, channels: active, failed })('c1', press);
    expect(answersTo(press.callbackId)).toHaveLength(2);
    expect(said).toEqual(['refused']);
    // A press MAX never made is refused as well.
    await answer('c1', { callbackId: 'cb.unknown', chatId: null, notification: '✓' });
    expect(said).toEqual(['refused', 'refused']);
  });

  it('switches the channel off when MAX no longer takes the token, as a send does', async () => {
    const revokedToken = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_revoked';
    const sealed = cipher.seal({ access_token: revokedToken });
    const revoked: [string, string | null][] = [];
    const { said, failed } = failures();
    const answer = pressAnswerer({
      apiUrl: max.url,
      cipher,
      channels: { getById: async () => channelOf({ credentials: sealed }) },
      failed,
      revoked: async (channelId, refused) => void revoked.push([channelId, refused]),
    });
    await answer('c1', pressed());
    expect(revoked).toEqual([['c1', sealed]]);
    expect(said).toEqual(['revoked']);
  });

  it('gives up when MAX does not answer in time, the read of the channel counted in, and says so', async () => {
    const { said, failed } = failures();
    let started = Date.now();
    await pressAnswerer({ apiUrl: silentUrl, cipher, channels: active, timeoutMs: 200, failed })('c1', pressed());
    expect(Date.now() - started).toBeLessThan(2_000);
    // A read of the channel that takes longer than the deadline: nothing is asked of MAX.
    const before = max.calls.length;
    const slowRead = { getById: () => new Promise<ChannelRecord>((resolve) => setTimeout(() => resolve(channelOf()), 400)) };
    started = Date.now();
    await pressAnswerer({ apiUrl: max.url, cipher, channels: slowRead, timeoutMs: 200, failed })('c1', pressed());
    expect(Date.now() - started).toBeLessThan(390);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(max.calls.length).toBe(before);
    expect(said).toEqual(['timeout', 'timeout']);
  });

  it('drops an answer whose turn in the chat’s pace is too far away, and one beyond those under way at once', async () => {
    const { said, failed } = failures();
    const pacer = callPacer(maxLimits, () => true);
    const answer = pressAnswerer({ apiUrl: max.url, cipher, channels: active, pacer, failed });
    // Two answers a chat within the second an answer may wait (at once, then 600 ms later); the third is dropped.
    const presses = [pressed(), pressed(), pressed()];
    await Promise.all(presses.map((p) => answer('c1', p)));
    expect(presses.map((p) => answersTo(p.callbackId).length)).toEqual([1, 1, 0]);
    expect(said).toEqual(['dropped']);

    const busy = failures();
    const hanging = pressAnswerer({ apiUrl: silentUrl, cipher, channels: active, timeoutMs: 300, maxAnswering: 1, failed: busy.failed });
    await Promise.all([hanging('c1', pressed()), hanging('c1', pressed())]);
    expect(busy.said).toEqual(['busy', 'timeout']);
  });
});
