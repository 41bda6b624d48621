import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import { v3Account } from '../testing/v3-account.ts';

// The v3 face's keys and its channel list, as the v3 facts describe them.
describe(`v3 authentication and channels (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let apiKey: string;
  let sidecarKey: string;
  let channels: Record<string, string>;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    ({ apiKey, sidecarKey, channels } = await v3Account(t, ['whatsapp', 'telegram', 'instAPI']));
    channels.qr = (await channelClient(t, apiKey).create('whatsapp')).channel_id;
  });
  afterAll(() => t.close());

  it('lists channels as a bare camelCase array, in the list spelling of states and transports', async () => {
    const res = await t.call('GET', '/v3/channels', { token: apiKey });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(Array.isArray(list)).toBe(true);
    const byId = new Map(list.map((c) => [c.channelId, c]));
    for (const c of list) expect(Object.keys(c).sort()).toEqual(['channelId', 'name', 'plainId', 'state', 'transport']);
    expect(byId.get(channels.whatsapp)).toMatchObject({ transport: 'whatsapp', state: 'active' });
    expect((byId.get(channels.whatsapp)!.plainId as string)).toMatch(/^\d+$/);
    expect(byId.get(channels.instAPI)).toMatchObject({ transport: 'instagram', state: 'active' });
    expect(byId.get(channels.telegram)).toMatchObject({ transport: 'telegram', state: 'active' });
    expect(byId.get(channels.qr)).toMatchObject({ transport: 'whatsapp', state: 'qridle' });
  });

  it('takes the API key and a sidecar key as Bearer on the channel list, and a trailing slash', async () => {
    expect((await t.call('GET', '/v3/channels/', { token: apiKey })).statusCode).toBe(200);
    expect((await t.call('GET', '/v3/channels', { token: sidecarKey })).statusCode).toBe(200);
  });

  it('answers 401 to a missing or wrong key', async () => {
    const missing = await t.call('GET', '/v3/channels');
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('UNAUTHORIZED');
    const wrong = await t.call('GET', '/v3/channels', { headers: { authorization: 'Bearer 33a817cbc1504bd5885574d8f0290cd3' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('answers a sidecar key 403 {"error":"FORBIDDEN"} off its routes', async () => {
    for (const [method, url] of [
      ['GET', '/v3/users'],
      ['GET', '/v3/contacts'],
      ['POST', '/v3/iframe'],
      ['GET', '/v3/unanswered/1'],
    ] as const) {
      const res = await t.call(method, url, { token: sidecarKey, body: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.body, url).toBe('{"error":"FORBIDDEN"}');
    }
  });

  it('counts v3 requests against the same limit as v2, per key', async () => {
    const res = await t.call('GET', '/v3/channels', { token: apiKey });
    expect(res.headers['ratelimit-policy']).toBe('"default";q=500;w=5');
    const v2 = await t.call('GET', '/v2/channels', { token: apiKey });
    const remaining = (h: unknown) => Number(/r=(\d+)/.exec(String(h))![1]);
    expect(remaining(v2.headers.ratelimit)).toBe(remaining(res.headers.ratelimit) - 1);
  });
});
