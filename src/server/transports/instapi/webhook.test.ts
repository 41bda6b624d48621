import { describe, expect, it, vi } from 'vitest';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import type { MessageDeps } from '../../core/messages/ports.ts';
import { callPacer } from '../call-pacer.ts';
import { liveDrivers } from '../live.ts';
import { instagramLimits } from './account.ts';
import { instagramAppHook, signatureOf } from './webhook.ts';

const APP_ID = '1234567890123456';
const APP_SECRET = 'app-secret-0123456789abcdef';
const VERIFY_TOKEN = 'verify-token-of-the-unit-tests';
const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };

function hookWith(channels: ChannelRecord[] = []) {
  const listByMessengerId = vi.fn(async () => channels);
  const peers = { byPeerId: vi.fn(), byHandle: vi.fn(), save: vi.fn() };
  const pacers = { account: callPacer(instagramLimits, () => false), media: callPacer(instagramLimits, () => false) };
  const hook = instagramAppHook({
    graphUrl: 'http://127.0.0.1:9',
    appId: APP_ID,
  appSecret: APP_SECRET,
    verifyToken: VERIFY_TOKEN,
    cipher,
    peers,
    channels: { listByMessengerId },
    messages: { clock: { now: () => new Date() } } as MessageDeps,
    pacers,
  });
  return { hook, listByMessengerId, peers };
}

const callback = (body: unknown, signature?: string) => {
  const rawBody = Buffer.from(JSON.stringify(body));
  return { headers: { 'x-hub-signature-256': signature ?? signatureOf(rawBody, APP_SECRET) }, rawBody, json: () => JSON.parse(rawBody.toString()) as unknown };
};
const post = { object: 'instagram', entry: [{ id: '17841400000000001', time: 1, messaging: [{ sender: { id: '61' }, recipient: { id: '17841400000000001' }, timestamp: 1, message: { mid: 'bWlk', text: 'Hi' } }] }] };

describe('Meta’s webhooks at the app’s address', () => {
  it('answer Meta’s check with its challenge only given the verify token, for a subscription', () => {
    const { hook } = hookWith();
    expect(hook.verify({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '42' })).toBe('42');
    expect(hook.verify({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '42' })).toBeNull();
    expect(hook.verify({ 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '42' })).toBeNull();
    expect(hook.verify({ 'hub.mode': 'subscribe', 'hub.verify_token': [VERIFY_TOKEN, VERIFY_TOKEN], 'hub.challenge': '42' })).toBeNull();
    expect(hook.verify({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN })).toBeNull();
  });

  it('turn a post away on its signature before anything is looked up', async () => {
    const { hook, listByMessengerId } = hookWith();
    expect(await hook.receive(callback(post, `sha256=${'0'.repeat(64)}`))).toBe('unauthorized');
    expect(await hook.receive({ ...callback(post), headers: {} })).toBe('unauthorized');
    expect(await hook.receive({ ...callback(post), headers: { 'x-hub-signature-256': [signatureOf(Buffer.from(JSON.stringify(post)), APP_SECRET)] } })).toBe('unauthorized');
    expect(listByMessengerId).not.toHaveBeenCalled();
    // Signed by the app: the account is looked up, and with no channel of it the entry is dropped, answered.
    expect(await hook.receive(callback(post))).toBe('ignored');
    expect(listByMessengerId).toHaveBeenCalledWith('instAPI', '17841400000000001');
  });

  it('drop a channel switched off without asking Meta who wrote', async () => {
    const off = { id: 'c1', state: { status: 'disabled', reason: 'unauthorized' }, credentials: null } as unknown as ChannelRecord;
    const { hook, peers } = hookWith([off]);
    expect(await hook.receive(callback(post))).toBe('ignored');
    expect(peers.byPeerId).not.toHaveBeenCalled();
  });
});

describe('the live drivers without a Meta app', () => {
  it('do not connect instAPI channels, and say what is missing', async () => {
    const live = liveDrivers({ publicUrl: 'https://gw.example.com', secretKey: 's'.repeat(40), cipher, telegramApiUrl: 'http://127.0.0.1:9', maxApiUrl: 'http://127.0.0.1:9', revoked: async () => {} });
    expect(live.connect.connects('instAPI')).toBe(false);
    expect(live.connect.connects('maxbot')).toBe(true);
    await expect(live.connect.connect({ channelId: 'c1', transport: 'instAPI', credentials: {} })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      data: { fields: [{ field: 'transport', message: 'is not set up on this gateway (META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN)' }] },
    });
    expect(live.registrars.map((r) => r.transport)).toEqual(['telegram', 'maxbot']);
    expect(Object.keys(live.hooks({ store: { channels: {} } } as unknown as MessageDeps).apps)).toEqual([]);
    await live.close();
  });
});
