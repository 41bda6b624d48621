import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`reconnecting, disabling and deleting channels (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let token: string;
  let accountId: string;
  let api: ReturnType<typeof channelClient>;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    accountId = account.accountId;
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, account.accountId);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  /** A whatsapp channel scanned by `phone` and synced. */
  async function activeWhatsapp(phone: string): Promise<string> {
    const { channel_id: id } = await api.create('whatsapp');
    await api.sandbox(id, 'scan', { phone });
    await api.untilActive(id);
    await stream.since();
    return id;
  }

  it('reinit of an active channel shows a new QR; the same phone reconnects it', async () => {
    const id = await activeWhatsapp('79001230001');
    const res = await api.reinit(id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ channel_id: id, status: 'init', reason: 'qr', phone: '79001230001' })]);
    const events = await stream.since();
    expect(events.map((e) => e.name)).toEqual(['channel.qr_update', 'channel.status_update']);
    expect(events[1]!.payload).toEqual({ channel_id: id, status: 'init', reason: 'qr' });
    await api.sandbox(id, 'scan');
    await api.untilActive(id);
    expect((await api.get(id)).phone).toBe('79001230001');
  });

  it('a different phone scanning on reinit gives disabled / foreignphone', async () => {
    const id = await activeWhatsapp('79001230002');
    await api.reinit(id);
    await stream.since();
    const scan = await api.sandbox(id, 'scan', { phone: '79009999999' });
    expect(scan.json().data).toMatchObject({ status: 'disabled', reason: 'foreignphone', phone: '79001230002' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'foreignphone' }]);
  });

  it('reinit of a disabled channel (logged out on the phone) starts over', async () => {
    const id = await activeWhatsapp('79001230003');
    expect((await api.sandbox(id, 'logout')).json().data).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'unauthorized' }]);
    const res = await api.reinit(id);
    expect(res.json().data[0]).toMatchObject({ status: 'init', reason: 'qr' });
    expect(await stream.names()).toEqual(['channel.qr_update', 'channel.status_update']);
  });

  it('opened elsewhere gives disabled / openelsewhere', async () => {
    const id = await activeWhatsapp('79001230004');
    expect((await api.sandbox(id, 'open-elsewhere')).json().data).toMatchObject({ status: 'disabled', reason: 'openelsewhere' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'openelsewhere' }]);
  });

  it('an unpaid channel is disabled / not_enough_money, cannot be reconnected, and is active again once paid', async () => {
    const id = await activeWhatsapp('79001230005');
    const unpaid = await api.sandbox(id, 'payment', { paid: false });
    expect(unpaid.json().data).toMatchObject({ status: 'disabled', reason: 'not_enough_money', tariff: { plan: 'sandbox', paid: false } });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'not_enough_money' }]);
    const reinit = await api.reinit(id);
    expect(reinit.statusCode).toBe(409);
    expect(reinit.json()).toMatchObject({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'disabled', reason: 'not_enough_money' } });
    const paid = await api.sandbox(id, 'payment', { paid: true });
    expect(paid.json().data).toMatchObject({ status: 'active', tariff: { paid: true } });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'active', reason: null }]);
  });

  it('refuses messenger reports that make no sense in the current status', async () => {
    const { channel_id: id } = await api.create('tgapi');
    await api.sandbox(id, 'logout');
    const again = await api.sandbox(id, 'logout');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'disabled', reason: 'unauthorized' } });
    const scan = await api.sandbox(id, 'scan');
    expect(scan.statusCode).toBe(409);
    expect(scan.json().error).toBe('CHANNEL_WRONG_STATUS');
  });

  it('delete keeping chats: disabled, then deleted; gone from the API, kept in the store', async () => {
    const id = await activeWhatsapp('79001230006');
    const res = await t.call('DELETE', `/v2/channels/${id}`, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBeNull();
    expect(await stream.since()).toEqual([
      { name: 'channel.delete', payload: { channel_id: id, timestamp: clock.now().getTime() } },
      { name: 'channel.status_update', payload: { channel_id: id, status: 'disabled', reason: null } },
    ]);
    expect((await t.call('GET', `/v2/channels/${id}`, { token })).statusCode).toBe(404);
    expect((await t.call('GET', '/v2/channels', { token })).json().data.map((c: { channel_id: string }) => c.channel_id)).not.toContain(id);
    const row = await t.gateway.database.db.selectFrom('channels').select(['status', 'deleted_at']).where('id', '=', id).executeTakeFirst();
    expect(row).toEqual({ status: 'disabled', deleted_at: clock.now() });
    expect((await t.call('DELETE', `/v2/channels/${id}`, { token })).statusCode).toBe(404);
  });

  it('delete with delete_chats=true removes the channel row', async () => {
    const id = await activeWhatsapp('79001230007');
    const res = await t.call('DELETE', `/v2/channels/${id}?delete_chats=true`, { token });
    expect(res.statusCode).toBe(200);
    expect(await stream.since()).toEqual([{ name: 'channel.delete', payload: { channel_id: id, timestamp: clock.now().getTime() } }]);
    expect(await t.gateway.database.db.selectFrom('channels').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await t.call('DELETE', `/v2/channels/${id}?delete_chats=maybe`, { token })).statusCode).toBe(400);
  });

  it("keeps accounts apart: another account's channel is not found, for every operation", async () => {
    const { channel_id: id } = await api.create('whatsapp');
    const other = await t.newAccount('Other');
    const foreign = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token: other.token, body });
    const answers = await Promise.all([
      foreign('GET', `/v2/channels/${id}`),
      foreign('DELETE', `/v2/channels/${id}`),
      foreign('POST', `/v2/channels/${id}/reinit`, { credentials: {} }),
      foreign('POST', `/v2/channels/${id}/auth/2fa`, { two_factor_code: '1', transport: 'whatsapp' }),
      foreign('POST', `/v2/channels/${id}/pairing-code`, { pairing_phone: '79001112233', transport: 'whatsapp' }),
      foreign('POST', `/v2/sandbox/channels/${id}/scan`, {}),
      foreign('POST', `/v2/sandbox/channels/${id}/logout`, {}),
    ]);
    for (const res of answers) expect(res.json()).toEqual({ error: 'CHANNEL_NOT_FOUND', description: 'Channel not found', data: { channel_id: id } });
    expect((await foreign('GET', '/v2/channels')).json().data).toEqual([]);
    expect((await api.get(id)).reason).toBe('qr');
  });

  it('lets a sidecar key read channels but not change them', async () => {
    const { channel_id: id } = await api.create('viber');
    const sidecar = (await t.issueToken(accountId, 'sidecar')).token;
    expect((await t.call('GET', `/v2/channels/${id}`, { token: sidecar })).statusCode).toBe(200);
    expect((await t.call('GET', '/v2/channels', { token: sidecar })).statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/v2/channels'],
      ['DELETE', `/v2/channels/${id}`],
      ['POST', `/v2/channels/${id}/reinit`],
      ['POST', `/v2/sandbox/channels/${id}/scan`],
    ] as const) {
      expect((await t.call(method, url, { token: sidecar, body: {} })).json().error).toBe('FORBIDDEN');
    }
  });

  it.each([
    ['an unknown transport', { transport: 'icq', credentials: {} }, 'transport'],
    ['vk, which connects through the channels iframe', { transport: 'vk', credentials: {} }, 'transport'],
    ['no credentials', { transport: 'whatsapp' }, 'credentials'],
    ['credentials on a QR transport', { transport: 'viber', credentials: { token: 'x' } }, 'credentials.token'],
    ['an unknown field', { transport: 'whatsapp', credentials: {}, name: 'x' }, 'name'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_label, body, field) => {
    const before = (await t.call('GET', '/v2/channels', { token })).json().data.length;
    const res = await t.call('POST', '/v2/channels', { token, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect((await t.call('GET', '/v2/channels', { token })).json().data.length).toBe(before);
    expect(await stream.names()).toEqual([]);
  });

  it('answers 400 for a channel id that is not a UUID', async () => {
    const res = await t.call('GET', '/v2/channels/42', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'params.channel_id', message: 'must match format "uuid"' }]);
  });
});
