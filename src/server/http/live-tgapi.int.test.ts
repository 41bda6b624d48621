import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { telegramAccountFake, type TelegramAccountFake } from '../testing/telegram-account-fake.ts';
import { databaseKind } from '../testing/test-database.ts';

const self = { id: 700100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
const other = { id: 700200, firstName: 'Someone', lastName: 'Else', username: 'someone_else', phone: '79990009999' };

/** The token inside a QR's payload, read back from the `tg://login` link the fake's client was asked for. */
const tokensExported = (fake: TelegramAccountFake) => fake.calls.filter((c) => c._ === 'auth.exportLoginToken').length;

describe(`personal Telegram accounts: connecting (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  const fake = telegramAccountFake({ self, password: 'correct horse battery staple', seed: 'connect' });
  fake.addUser(other);
  let t: TestGateway;
  let api: ReturnType<typeof channelClient>;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    ({ t } = await startLiveGateway({ SECRET_KEY: 's'.repeat(40) }, { clock, tgapiClients: fake.clients }));
    const { accountId, token } = await t.newAccount();
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, accountId);
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await stream.since();
  });

  it('shows Telegram’s login token as a QR, renews it, and asks for the two-factor password after the scan', async () => {
    const { channel_id: id } = await api.create('tgapi');
    const events = await stream.since();
    expect(events.map((e) => e.name)).toEqual(['channel.create', 'channel.qr_update', 'channel.status_update']);
    expect(events[1]!.payload).toMatchObject({ channel_id: id, platform: 'telegram_api', qr_code: expect.stringMatching(/^data:image\/png;base64,/) });
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'qr' });
    expect(tokensExported(fake)).toBe(1);

    // Each QR the channel shows is a new token from Telegram.
    clock.advance(20_000);
    expect((await api.get(id)).reason).toBe('qr');
    const renewed = await stream.since();
    expect(renewed.map((e) => e.name)).toEqual(['channel.qr_update']);
    expect(renewed[0]!.payload.qr_code).not.toBe(events[1]!.payload.qr_code);
    expect(tokensExported(fake)).toBe(2);

    fake.scan();
    await eventually(async () => ((await api.get(id)).reason === 'wait_for_password' ? true : undefined));
    expect(await stream.since()).toEqual([{ name: 'channel.status_update', payload: { channel_id: id, status: 'init', reason: 'wait_for_password' } }]);

    const wrong = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'tr0ub4dor&3', transport: 'tgapi' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'TWO_FACTOR_CODE_INVALID' });
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: 'wait_for_password' });

    const right = await api.post(`/v2/channels/${id}/auth/2fa`, { two_factor_code: 'correct horse battery staple', transport: 'tgapi' });
    expect(right.statusCode, right.body).toBe(200);
    expect(await api.get(id)).toMatchObject({ status: 'active', phone: self.phone, username: self.username, messenger_id: String(self.id), name: 'Acme Support' });
    // The check was Telegram's SRP: the password itself never went to Telegram.
    const checks = fake.calls.filter((c) => c._ === 'auth.checkPassword');
    expect(checks).toHaveLength(2);
    expect(JSON.stringify(checks)).not.toContain('horse');
    // The logged-in session is held by this process, under its lease.
    await eventually(async () => (t.gateway.sessions?.running().includes(id) ? true : undefined));
  });
});
