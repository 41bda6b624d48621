import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';

describe('the pacing extension of personal channels over /v2', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the default profile and the queue, changes given fields, and refuses what is not a profile', async () => {
    const { token } = await t.newAccount();
    const created = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    const channelId = created.json().data[0].channel_id as string;
    const got = await t.call('GET', `/v2/channels/${channelId}/pacing`, { token });
    expect(got.statusCode).toBe(200);
    const body = got.json().data;
    expect(body.profile).toMatchObject({ enabled: true, warm_up: true, daily_caps: [200, 300, 450, 600, 800, 1000], first_contact_caps: [20, 30, 45, 65, 90, 120, 150], quiet_hours: null });
    expect(body.state).toMatchObject({ day: 1, sent_today: 0, daily_cap: 200, first_contact_cap: 20, queue_length: 0, held: 0, slowed_down: null });

    const changed = await t.call('PATCH', `/v2/channels/${channelId}/pacing`, { token, body: { time_zone: 'Europe/Moscow', quiet_hours: { from: '22:00', to: '08:00' }, warm_up: false } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.profile).toMatchObject({ time_zone: 'Europe/Moscow', quiet_hours: { from: '22:00', to: '08:00' }, warm_up: false, gap_seconds: { min: 4, max: 15 } });
    expect(changed.json().data.state).toMatchObject({ daily_cap: 1000, first_contact_cap: 150 });
    // Kept: a later change leaves the earlier ones.
    await t.call('PATCH', `/v2/channels/${channelId}/pacing`, { token, body: { burst_size: 5 } });
    expect((await t.call('GET', `/v2/channels/${channelId}/pacing`, { token })).json().data.profile).toMatchObject({ time_zone: 'Europe/Moscow', burst_size: 5 });

    expect((await t.call('PATCH', `/v2/channels/${channelId}/pacing`, { token, body: { time_zone: 'Mars/Olympus' } })).statusCode).toBe(400);
    expect((await t.call('PATCH', `/v2/channels/${channelId}/pacing`, { token, body: { gap_seconds: { min: 9, max: 3 } } })).statusCode).toBe(400);
    expect((await t.call('PATCH', `/v2/channels/${channelId}/pacing`, { token, body: { hourly_caps: [1] } })).statusCode).toBe(400);
    const bot = await t.call('POST', '/v2/channels', { token, body: { transport: 'telegram', credentials: { token: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi' } } });
    if (bot.statusCode === 201) expect((await t.call('GET', `/v2/channels/${bot.json().data[0].channel_id}/pacing`, { token })).statusCode).toBe(400);
    expect((await t.call('GET', '/v2/channels/00000000-0000-4000-8000-000000000000/pacing', { token })).statusCode).toBe(404);
  });
});
