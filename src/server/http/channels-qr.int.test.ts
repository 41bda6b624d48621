import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { onQrTimer } from '../core/channels/channel-queries.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The payload of a qr_update is a real PNG image as a data URL. */
function expectPngDataUrl(value: unknown) {
  expect(value).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  const png = Buffer.from((value as string).split(',')[1]!, 'base64');
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(200); // width from the IHDR chunk
}

describe(`connecting by QR, pairing code and two-factor password (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let api: ReturnType<typeof channelClient>;
  let token: string;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    const accountId = account.accountId;
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, accountId);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  it('whatsapp by QR: init/qr with a QR image, scan, sync, active', async () => {
    const { channel_id: id, ...rest } = await api.create('whatsapp');
    expect(rest).toEqual({ transport: 'whatsapp', status: 'init', reason: 'qr', state: 'qr' });
    const events = await stream.since();
    expect(events.map((e) => e.name)).toEqual(['channel.create', 'channel.qr_update', 'channel.status_update']);
    expect(events[0]!.payload).toEqual({ channel_id: id, timestamp: clock.now().getTime() });
    expect(events[1]!.payload).toMatchObject({ channel_id: id, platform: 'whatsapp' });
    expectPngDataUrl(events[1]!.payload.qr_code);
    expect(events[2]!.payload).toEqual({ channel_id: id, status: 'init', reason: 'qr' });
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'qr', state: 'qr', phone: null, tariff: { plan: 'sandbox', paid: true } });

    const scan = await api.sandbox(id, 'scan', { phone: '79001112233' });
    expect(scan.statusCode).toBe(200);
    expect(scan.json().data).toMatchObject({ status: 'init', reason: 'sync', phone: '79001112233' });
    await api.untilActive(id);
    // The sync job may finish before the stream is read: both steps are there, each once.
    const steps = (await stream.since()).map((e) => e.payload);
    expect(steps).toHaveLength(2);
    expect(steps).toEqual(
      expect.arrayContaining([
        { channel_id: id, status: 'init', reason: 'sync' },
        { channel_id: id, status: 'active', reason: null },
      ]),
    );
    expect(await api.get(id)).toMatchObject({ status: 'active', reason: null, state: 'active', phone: '79001112233', messenger_id: '79001112233' });
  });

  it('refreshes the QR every 20 seconds and goes to qridle after the 6th', async () => {
    const { channel_id: id } = await api.create('viber');
    const first = (await stream.since()).find((e) => e.name === 'channel.qr_update')!;
    expect(first.payload.platform).toBe('viber');
    const codes = new Set([first.payload.qr_code]);
    clock.advance(19_999);
    expect((await api.get(id)).reason).toBe('qr');
    expect(await stream.names()).toEqual([]);
    for (let shown = 2; shown <= 6; shown++) {
      clock.advance(shown === 2 ? 1 : 20_000);
      expect((await api.get(id)).reason).toBe('qr');
      const events = await stream.since();
      expect(events.map((e) => e.name)).toEqual(['channel.qr_update']);
      codes.add(events[0]!.payload.qr_code);
    }
    expect(codes.size).toBe(6);
    clock.advance(20_000);
    expect(await api.get(id)).toMatchObject({ status: 'disabled', reason: 'qridle', state: 'qridle' });
    expect(await stream.since()).toEqual([{ name: 'channel.status_update', payload: { channel_id: id, status: 'disabled', reason: 'qridle' } }]);

    const scan = await api.sandbox(id, 'scan');
    expect(scan.statusCode).toBe(409);
    expect(scan.json()).toMatchObject({ error: 'CHANNEL_QR_EXPIRED' });

    const reinit = await api.reinit(id);
    expect(reinit.statusCode).toBe(200);
    expect(reinit.json().data).toEqual([expect.objectContaining({ channel_id: id, status: 'init', reason: 'qr' })]);
    expect(await stream.names()).toEqual(['channel.qr_update', 'channel.status_update']);
  });

  it('catches up several missed QR lifetimes at once, showing only the current code', async () => {
    const { channel_id: id } = await api.create('max');
    await stream.since();
    clock.advance(3 * 20_000 + 5_000);
    expect((await api.get(id)).reason).toBe('qr');
    expect(await stream.names()).toEqual(['channel.qr_update']);
    clock.advance(3 * 20_000);
    expect((await api.get(id)).reason).toBe('qridle');
  });

  it('sets a timer job for the end of each QR life', async () => {
    const { channel_id: id } = await api.create('whatsapp');
    const { rows } = await sql<{ start_after: Date; shown: number }>`
      select start_after, (data->>'shown')::int as shown from pgboss.job
      where name = 'channels.qr_tick' and data->>'channelId' = ${id}`.execute(t.gateway.database.db);
    expect(rows).toEqual([{ start_after: new Date(clock.now().getTime() + 20_000), shown: 1 }]);
  });

  it('the QR timer job shows the next code when due, and ignores a stale or early firing', async () => {
    const { channel_id: id } = await api.create('whatsapp');
    await stream.since();
    expect(await onQrTimer(t.gateway.channels, id, 1)).toBe('early');
    clock.advance(20_000);
    expect(await onQrTimer(t.gateway.channels, id, 2)).toBe('done'); // a timer of a code not shown yet
    expect(await stream.names()).toEqual([]);
    expect(await onQrTimer(t.gateway.channels, id, 1)).toBe('done');
    expect(await stream.names()).toEqual(['channel.qr_update']);
    expect(await onQrTimer(t.gateway.channels, id, 1)).toBe('done'); // fired twice: nothing more
    expect(await stream.names()).toEqual([]);
  });

  it('whatsapp by pairing code: the code for the phone, confirmed on that phone', async () => {
    const { channel_id: id } = await api.create('whatsapp');
    await stream.since();
    const res = await api.post(`/v2/channels/${id}/pairing-code`, { pairing_phone: '79005554433', transport: 'whatsapp' });
    expect(res.statusCode).toBe(200);
    const [code] = res.json().data;
    expect(code).toEqual({ pairing_code: expect.stringMatching(/^[A-Z2-9]{8}$/), pairing_phone: '79005554433' });
    expect(await stream.names()).toEqual([]);

    const wrongPhone = await api.sandbox(id, 'scan', { phone: '79000000000' });
    expect(wrongPhone.statusCode).toBe(400);
    expect(wrongPhone.json().data.fields).toEqual([{ field: 'phone', message: 'the pairing code was issued for 79005554433' }]);

    expect((await api.sandbox(id, 'scan')).json().data).toMatchObject({ reason: 'sync', phone: '79005554433' });
    await api.untilActive(id);
    expect(await stream.names()).toEqual(['channel.status_update', 'channel.status_update']);
  });

  it('refuses a pairing code once the QR expired: 409 CHANNEL_QR_EXPIRED', async () => {
    const { channel_id: id } = await api.create('whatsapp');
    clock.advance(6 * 20_000);
    const res = await api.post(`/v2/channels/${id}/pairing-code`, { pairing_phone: '79005554433', transport: 'whatsapp' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'CHANNEL_QR_EXPIRED',
      description: expect.any(String),
      data: { status: 'disabled', reason: 'qridle' },
    });
    // The expiry is kept although the request was refused.
    expect((await api.get(id)).reason).toBe('qridle');
  });

  it('refuses a pairing code for a transport without one, and a phone that is not digits', async () => {
    const { channel_id: tgapi } = await api.create('tgapi');
    const wrong = await api.post(`/v2/channels/${tgapi}/pairing-code`, { pairing_phone: '79005554433', transport: 'whatsapp' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.fields).toEqual([{ field: 'transport', message: "does not match the channel's transport (tgapi)" }]);
    const { channel_id: wa } = await api.create('whatsapp');
    const plus = await api.post(`/v2/channels/${wa}/pairing-code`, { pairing_phone: '+79005554433', transport: 'whatsapp' });
    expect(plus.statusCode).toBe(400);
    expect(plus.json().data.fields).toEqual([{ field: 'pairing_phone', message: expect.stringContaining('pattern') }]);
  });

  it('tgapi with a two-factor password: wait_for_password, a wrong code 400, the right one active', async () => {
    const phone = '79007778899';
    const set = await t.call('PUT', `/v2/sandbox/phones/${phone}/two-factor`, { token, body: { password: 'hunter2' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toEqual({ phone, two_factor: true });

    const { channel_id: id } = await api.create('tgapi');
    expect((await stream.since()).find((e) => e.name === 'channel.qr_update')?.payload.platform).toBe('telegram_api');
    const early = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'hunter2', transport: 'tgapi' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'init', reason: 'qr' } });

    expect((await api.sandbox(id, 'scan', { phone })).json().data).toMatchObject({ status: 'init', reason: 'wait_for_password', state: 'wait_for_password' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'init', reason: 'wait_for_password' }]);

    const wrong = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'hunter3', transport: 'tgapi' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'TWO_FACTOR_CODE_INVALID', data: { field: 'two_factor_code' } });
    const mismatch = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'hunter2', transport: 'whatsapp' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().data.fields[0].field).toBe('transport');
    expect(await stream.names()).toEqual([]);

    const right = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'hunter2', transport: 'tgapi' });
    expect(right.statusCode).toBe(200);
    expect(right.json().data).toBeNull();
    expect((await api.get(id)).status).toBe('active');
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'active', reason: null }]);
  });

  it('a whatsapp account with a password is not asked for it: two-factor is a tgapi step', async () => {
    const phone = '79007778800';
    await t.call('PUT', `/v2/sandbox/phones/${phone}/two-factor`, { token, body: { password: 'secret' } });
    const { channel_id: id } = await api.create('whatsapp');
    expect((await api.sandbox(id, 'scan', { phone })).json().data.reason).toBe('sync');
  });

  it("keeps each account's sandbox phones its own: another account cannot set, use or remove this one's password", async () => {
    const phone = '79007778811';
    const other = (await t.newAccount()).token;
    await t.call('PUT', `/v2/sandbox/phones/${phone}/two-factor`, { token, body: { password: 'mine' } });
    // The other account's password for the same number neither replaces this account's nor is asked of it.
    await t.call('PUT', `/v2/sandbox/phones/${phone}/two-factor`, { token: other, body: { password: 'theirs' } });
    const { channel_id: id } = await api.create('tgapi');
    expect((await api.sandbox(id, 'scan', { phone })).json().data.reason).toBe('wait_for_password');
    expect((await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'theirs', transport: 'tgapi' })).statusCode).toBe(400);
    await t.call('PUT', `/v2/sandbox/phones/${phone}/two-factor`, { token: other, body: { password: null } });
    expect((await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'mine', transport: 'tgapi' })).statusCode).toBe(200);

    // A phone only the other account gave a password asks nothing of this one.
    const theirs = '79007778822';
    await t.call('PUT', `/v2/sandbox/phones/${theirs}/two-factor`, { token: other, body: { password: 'theirs' } });
    const { channel_id: plain } = await api.create('tgapi');
    expect((await api.sandbox(plain, 'scan', { phone: theirs })).json().data.reason).toBe('sync');
  });
});
