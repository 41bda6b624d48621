import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

describe(`connecting channels from the connect frame (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let frame: string;
  let chats: string;

  const bff = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, body?: unknown) =>
    t.call(method, `/bff${url}`, { token, ...(body === undefined ? {} : { body }) });
  const create = async (transport: string, credentials: Record<string, unknown> = {}) => {
    const res = await bff('POST', '/channels', frame, { transport, credentials });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json().data as { channel_id: string; transport: string; url?: string }[])[0]!;
  };

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    frame = await openFrame(t, a.token, 'channels', { user: { id: 'admin-1' }, transport: 'whatsapp' });
    chats = await openFrame(t, a.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
  });
  afterAll(() => t.close());

  it('connects a whatsapp channel by QR: the current code, then the scan', async () => {
    const created = await create('whatsapp');
    expect(created).toEqual({ channel_id: expect.any(String), transport: 'whatsapp', status: 'init', reason: 'qr', state: 'qr' });
    const qr = await bff('GET', `/channels/${created.channel_id}/qr`, frame);
    expect(qr.statusCode).toBe(200);
    expect(qr.json().data).toEqual({
      channel_id: created.channel_id,
      qr_code: expect.stringMatching(PNG_DATA_URL),
      platform: 'whatsapp',
      expires_at: new Date(clock.now().getTime() + 20_000).toISOString(),
    });
    // A later look after the code's lifetime gets the next code.
    clock.advance(25_000);
    const next = (await bff('GET', `/channels/${created.channel_id}/qr`, frame)).json().data;
    expect(next.qr_code).not.toBe(qr.json().data.qr_code);
    expect(next.expires_at).toBe(new Date(clock.now().getTime() - 5_000 + 20_000).toISOString());

    await channelClient(t, a.token).sandbox(created.channel_id, 'scan', { phone: '79001112233' });
    await channelClient(t, a.token).untilActive(created.channel_id);
    const gone = await bff('GET', `/channels/${created.channel_id}/qr`, frame);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ error: 'CHANNEL_QR_EXPIRED', data: { status: 'active', reason: null } });
    const listed = (await bff('GET', '/channels', frame)).json().data as { channel_id: string; status: string }[];
    expect(listed.find((c) => c.channel_id === created.channel_id)?.status).toBe('active');
    const one = await bff('GET', `/channels/${created.channel_id}`, frame);
    expect(one.json().data).toEqual([listed.find((c) => c.channel_id === created.channel_id)]);
  });

  it('gives a pairing code while a QR is live, and 409 once it is not', async () => {
    const { channel_id: id } = await create('whatsapp');
    const code = await bff('POST', `/channels/${id}/pairing-code`, frame, { pairing_phone: '79005554433', transport: 'whatsapp' });
    expect(code.statusCode).toBe(200);
    expect(code.json().data).toEqual([{ pairing_code: expect.stringMatching(/^[A-Z2-9]{8}$/), pairing_phone: '79005554433' }]);
    clock.advance(6 * 20_000);
    const late = await bff('POST', `/channels/${id}/pairing-code`, frame, { pairing_phone: '79005554433', transport: 'whatsapp' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: 'CHANNEL_QR_EXPIRED', data: { status: 'disabled', reason: 'qridle' } });

    // Reconnecting starts a new QR cycle.
    const again = await bff('POST', `/channels/${id}/reinit`, frame, { credentials: {} });
    expect(again.statusCode).toBe(200);
    expect(again.json().data[0]).toMatchObject({ channel_id: id, status: 'init', reason: 'qr' });
    expect((await bff('GET', `/channels/${id}/qr`, frame)).statusCode).toBe(200);
  });

  it('takes the two-factor password of a tgapi account', async () => {
    const phone = '79007778899';
    await t.call('PUT', `/v2/sandbox/phones/${phone}/two-factor`, { token: a.token, body: { password: 'hunter2' } });
    const { channel_id: id } = await create('tgapi');
    expect((await bff('GET', `/channels/${id}/qr`, frame)).json().data.platform).toBe('telegram_api');
    await channelClient(t, a.token).sandbox(id, 'scan', { phone });
    const wrong = await bff('POST', `/channels/${id}/auth/2fa`, frame, { two_factor_code: 'nope', transport: 'tgapi' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('TWO_FACTOR_CODE_INVALID');
    const right = await bff('POST', `/channels/${id}/auth/2fa`, frame, { two_factor_code: 'hunter2', transport: 'tgapi' });
    expect(right.statusCode).toBe(200);
    expect((await channelClient(t, a.token).get(id)).status).toBe('active');
  });

  it('connects a bot by token, refuses a bad one naming the field, and deletes a channel', async () => {
    const bot = await create('telegram', { telegram_token: TELEGRAM_TOKEN });
    expect((await channelClient(t, a.token).get(bot.channel_id)).status).toBe('active');
    const bad = await bff('POST', '/channels', frame, { transport: 'telegram', credentials: { telegram_token: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields[0].field).toBe('credentials.telegram_token');
    const wapi = await create('wapi');
    expect(wapi.url).toEqual(expect.any(String));

    expect((await bff('DELETE', `/channels/${bot.channel_id}`, frame)).statusCode).toBe(200);
    expect((await t.call('GET', `/v2/channels/${bot.channel_id}`, { token: a.token })).statusCode).toBe(404);
  });

  it('connects a VK community only here: an authorization url, followed once; reconnects it here too, never through /v2', async () => {
    const transports = (await bff('GET', '/transports', frame)).json().data as { transport: string; creatable: boolean }[];
    expect(transports.every((tr) => tr.creatable)).toBe(true);
    const refusedCredentials = await bff('POST', '/channels', frame, { transport: 'vk', credentials: { token: 'x' } });
    expect(refusedCredentials.statusCode).toBe(400);
    const vk = await create('vk');
    const id = vk.channel_id;
    expect(vk.url).toMatch(new RegExp(`/sandbox/authorize/${id}\\?state=[A-Za-z0-9_-]{22}$`));
    expect((await channelClient(t, a.token).get(id)).status).toBe('init');
    const page = await t.call('GET', new URL(vk.url!).pathname + new URL(vk.url!).search);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('VK community');
    expect(await channelClient(t, a.token).get(id)).toMatchObject({ status: 'active', transport: 'vk', name: expect.stringMatching(/^Sandbox VK community \d+$/), tier: null });

    // Reconnecting goes through the frame as connecting did: a new authorization url.
    const viaApi = await t.call('POST', `/v2/channels/${id}/reinit`, { token: a.token, body: { credentials: {} } });
    expect(viaApi.statusCode).toBe(409);
    const again = await bff('POST', `/channels/${id}/reinit`, frame, { credentials: {} });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data[0]).toMatchObject({ status: 'init', url: expect.stringContaining(`/sandbox/authorize/${id}?state=`) });
    expect((await t.call('POST', '/v2/channels', { token: a.token, body: { transport: 'vk', credentials: {} } })).statusCode).toBe(400);
  });

  it('refuses every connect operation to a chats session with 403, and changes nothing', async () => {
    const { channel_id: id } = await create('whatsapp');
    const before = (await t.call('GET', '/v2/channels', { token: a.token })).json().data.length;
    const calls: [('GET' | 'POST' | 'DELETE'), string, unknown?][] = [
      ['POST', '/channels', { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } }],
      ['GET', `/channels/${id}/qr`],
      ['POST', `/channels/${id}/pairing-code`, { pairing_phone: '79005554433', transport: 'whatsapp' }],
      ['POST', `/channels/${id}/auth/2fa`, { two_factor_code: 'x', transport: 'whatsapp' }],
      ['POST', `/channels/${id}/reinit`, { credentials: {} }],
      ['DELETE', `/channels/${id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await bff(method, url, chats, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe('FORBIDDEN');
    }
    expect((await t.call('GET', '/v2/channels', { token: a.token })).json().data.length).toBe(before);
    // Listing stays open to the chat frame.
    expect((await bff('GET', '/channels', chats)).statusCode).toBe(200);
  });

  it("keeps accounts apart: another account's channel is not found, and B's frame lists none of A's", async () => {
    const { channel_id: id } = await create('whatsapp');
    const other = await openFrame(t, b.token, 'channels', {});
    const calls: [('GET' | 'POST' | 'DELETE'), string, unknown?][] = [
      ['GET', `/channels/${id}/qr`],
      ['POST', `/channels/${id}/pairing-code`, { pairing_phone: '79005554433', transport: 'whatsapp' }],
      ['POST', `/channels/${id}/auth/2fa`, { two_factor_code: 'x', transport: 'whatsapp' }],
      ['POST', `/channels/${id}/reinit`, { credentials: {} }],
      ['DELETE', `/channels/${id}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await bff(method, url, other, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe('CHANNEL_NOT_FOUND');
    }
    expect((await bff('GET', '/channels', other)).json().data).toEqual([]);
    expect((await bff('GET', `/channels/${id}`, other)).json().error).toBe('CHANNEL_NOT_FOUND');
    expect((await channelClient(t, a.token).get(id)).status).toBe('init');
  });
});
