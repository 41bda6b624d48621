import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

describe(`connecting by bot token, code, fields and authorization URL (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let token: string;
  let api: ReturnType<typeof channelClient>;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    api = channelClient(t, token);
    stream = eventStream(t.gateway.database, account.accountId);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  const create = (body: unknown) => t.call('POST', '/v2/channels', { token, body });
  const channelCount = async () => (await t.call('GET', '/v2/channels', { token })).json().data.length as number;

  it('telegram with a valid bot token is active at once', async () => {
    const { channel_id: id } = await api.create('telegram', { telegram_token: TELEGRAM_TOKEN });
    expect(await stream.since()).toEqual([
      { name: 'channel.create', payload: { channel_id: id, timestamp: clock.now().getTime() } },
      { name: 'channel.status_update', payload: { channel_id: id, status: 'active', reason: null } },
    ]);
    const channel = await api.get(id);
    expect(channel).toMatchObject({ status: 'active', messenger_id: '123456789', username: 'sandbox_123456789_bot' });
    expect(channel.capabilities).toMatchObject({ transport: 'telegram', keyboard: 'telegram_bot', can_write_first: false });
    expect(JSON.stringify(channel)).not.toContain(TELEGRAM_TOKEN);
  });

  it('keeps the token only encrypted at rest', async () => {
    const { channel_id: id } = await api.create('telegram', { telegram_token: TELEGRAM_TOKEN });
    const row = await t.gateway.database.db.selectFrom('channels').select('credentials').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.credentials).toMatch(/^v1\./);
    expect(row.credentials).not.toContain('123456789');
  });

  it.each([
    ['a token of the wrong form', { telegram_token: 'not-a-token' }, 'credentials.telegram_token', 'is not a bot token of the form <digits>:<35 characters>'],
    ['a token one character short', { telegram_token: TELEGRAM_TOKEN.slice(0, -1) }, 'credentials.telegram_token', expect.any(String)],
    ['no token', {}, 'credentials.telegram_token', 'is required'],
    ['an empty token', { telegram_token: '' }, 'credentials.telegram_token', expect.any(String)],
    ['a token that is a number', { telegram_token: 42 }, 'credentials.telegram_token', 'must be string'],
    ['a field of another transport', { telegram_token: TELEGRAM_TOKEN, access_token: 'x' }, 'credentials.access_token', 'is not allowed'],
  ])('telegram with %s: 400 naming the field, nothing stored', async (_label, credentials, field, message) => {
    const before = await channelCount();
    const res = await create({ transport: 'telegram', credentials });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: expect.arrayContaining([{ field, message }]) } });
    expect(await channelCount()).toBe(before);
    expect(await stream.names()).toEqual([]);
  });

  it('maxbot: a token of 20+ characters is active, a shorter one is refused', async () => {
    const short = await create({ transport: 'maxbot', credentials: { access_token: 'x'.repeat(19) } });
    expect(short.statusCode).toBe(400);
    expect(short.json().data.fields).toEqual([{ field: 'credentials.access_token', message: 'must be at least 20 characters without spaces' }]);
    const { channel_id: id } = await api.create('maxbot', { access_token: 'm'.repeat(32) });
    expect(await api.get(id)).toMatchObject({ status: 'active', transport: 'maxbot' });
    expect(await stream.names()).toEqual(['channel.create', 'channel.status_update']);
  });

  it('a revoked bot token disables the channel and is refused afterwards; a new one reconnects', async () => {
    const bot = `987654321:${'Z'.repeat(35)}`;
    const { channel_id: id } = await api.create('telegram', { telegram_token: bot });
    await stream.since();
    const revoked = await api.sandbox(id, 'revoke-token');
    expect(revoked.json().data).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'unauthorized' }]);

    const again = await api.reinit(id, { telegram_token: bot });
    expect(again.statusCode).toBe(400);
    expect(again.json().data.fields).toEqual([{ field: 'credentials.telegram_token', message: 'was revoked' }]);
    expect((await create({ transport: 'telegram', credentials: { telegram_token: bot } })).statusCode).toBe(400);
    expect((await api.get(id)).reason).toBe('unauthorized');

    const fresh = await api.reinit(id, { telegram_token: `987654321:${'Y'.repeat(35)}` });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().data).toEqual([expect.objectContaining({ channel_id: id, status: 'active', reason: null, tariff: { plan: 'sandbox', paid: true } })]);
    expect(await stream.names()).toEqual(['channel.status_update']);
  });

  it('reinit checks credentials against the channel transport, naming the field', async () => {
    const { channel_id: id } = await api.create('maxbot', { access_token: 'k'.repeat(24) });
    const res = await api.reinit(id, { telegram_token: TELEGRAM_TOKEN });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual(
      expect.arrayContaining([
        { field: 'credentials.access_token', message: 'is required' },
        { field: 'credentials.telegram_token', message: 'is not allowed' },
      ]),
    );
  });

  it('avito by code, instAPI by its four fields', async () => {
    const badCode = await create({ transport: 'avito', credentials: { code: 'a b' } });
    expect(badCode.json().data.fields).toEqual([{ field: 'credentials.code', message: 'is not an authorization code' }]);
    const { channel_id: avito } = await api.create('avito', { code: 'auth-code-123' });
    expect((await api.get(avito)).status).toBe('active');

    const missing = await create({ transport: 'instAPI', credentials: { username: 'shop' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'credentials.inst_id',
      'credentials.page_id',
      'credentials.user_token',
    ]);
    const { channel_id: inst } = await api.create('instAPI', { username: 'shop', page_id: '1', inst_id: '17841', user_token: 'EAAB' });
    expect(await api.get(inst)).toMatchObject({ status: 'active', username: 'shop', messenger_id: '17841' });
  });

  it('wapi returns the URL to follow; following it makes the number active with a tier', async () => {
    const created = await api.create('wapi');
    const id = created.channel_id;
    expect(created.url).toMatch(new RegExp(`^http://localhost:8080/sandbox/authorize/${id}\\?state=[A-Za-z0-9_-]{22}$`));
    expect((await stream.since()).map((e) => e.payload)).toEqual([
      { channel_id: id, timestamp: clock.now().getTime() },
      { channel_id: id, status: 'init', reason: null },
    ]);
    expect(await api.get(id)).toMatchObject({ status: 'init', reason: null, state: 'init', url: created.url, tier: null });

    const path = created.url!.replace('http://localhost:8080', '');
    const forged = await t.call('GET', path.replace(/state=.*/, 'state=forged'));
    expect(forged.statusCode).toBe(404);
    expect((await api.get(id)).status).toBe('init');

    const page = await t.call('GET', path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(await stream.since()).toEqual([
      { name: 'channel.status_update', payload: { channel_id: id, status: 'active', reason: null } },
      { name: 'channel.waba_tier_update', payload: { channel_id: id, tier: 'TIER_1K' } },
    ]);
    const channel = await api.get(id);
    expect(channel).toMatchObject({ status: 'active', tier: 'TIER_1K', phone: expect.stringMatching(/^79\d{9}$/) });
    expect(channel.url).toBeUndefined();
    expect((await t.call('GET', path)).statusCode).toBe(404); // used once

    const tier = await api.sandbox(id, 'tier', { tier: 'TIER_10K' });
    expect(tier.json().data.tier).toBe('TIER_10K');
    expect(await stream.since()).toEqual([{ name: 'channel.waba_tier_update', payload: { channel_id: id, tier: 'TIER_10K' } }]);
    expect((await api.sandbox(id, 'tier', { tier: 'TIER_3' })).statusCode).toBe(400);

    const blocked = await api.sandbox(id, 'block');
    expect(blocked.json().data).toMatchObject({ status: 'disabled', reason: 'blocked' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'blocked' }]);
  });

  it('a wapi number still being authorized can be rejected; only wapi numbers are', async () => {
    const { channel_id: id } = await api.create('wapi');
    await stream.since();
    expect((await api.sandbox(id, 'reject')).json().data).toMatchObject({ status: 'disabled', reason: 'rejected' });
    expect((await stream.since()).map((e) => e.payload)).toEqual([{ channel_id: id, status: 'disabled', reason: 'rejected' }]);
    const { channel_id: bot } = await api.create('maxbot', { access_token: 'q'.repeat(30) });
    const res = await api.sandbox(bot, 'block');
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'channel_id', message: 'only business-API (wapi) channels are blocked or rejected' }]);
    expect((await api.sandbox(bot, 'tier', { tier: 'TIER_1K' })).statusCode).toBe(400);
  });
});
