import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import { APP_ID, APP_SECRET, NUMBER, SIGNUP_CONFIG_ID, VERIFY_TOKEN, WABA_ID, comeBack, createWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup, channelView } from '../testing/whatsapp-fixture.ts';

const OTHER_WABA = '102290129340399';
const OTHER_NUMBER = { id: '110200345501443', display_phone_number: '+1 555-010-0002', verified_name: 'Acme Outlet', messaging_limit_tier: 'TIER_250', platform_type: 'CLOUD_API' as const };

describe(`live whatsapp: configuration (${databaseKind()})`, () => {
  it('refuses wapi channels and leaves them out of the channels frame until the signup configuration is set', async () => {
    const { t } = await startLiveGateway({ META_APP_ID: APP_ID, META_APP_SECRET: APP_SECRET, META_VERIFY_TOKEN: VERIFY_TOKEN });
    try {
      const { token } = await t.newAccount();
      const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'wapi', credentials: {} } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'VALIDATION_ERROR',
        data: { fields: [{ field: 'transport', message: 'is not set up on this gateway (META_APP_ID, META_APP_SECRET, META_VERIFY_TOKEN and WHATSAPP_SIGNUP_CONFIG_ID)' }] },
      });
      const frame = await openFrame(t, token, 'channels', {});
      const offered = (await t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
      expect(offered.filter((x) => x.creatable).map((x) => x.transport).sort()).toEqual(['instAPI', 'maxbot', 'telegram']);
      expect((await t.call('GET', '/hooks/wapi/authorized?state=x&code=y')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe(`live whatsapp: connecting by Embedded Signup (${databaseKind()})`, () => {
  let s: WhatsAppSetup;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    s = await startWhatsAppSetup({ clock });
    s.meta.addAccount(OTHER_WABA, [OTHER_NUMBER]);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const channel = (id: string) => channelView(s, id);

  it('answers Meta’s login dialog for the app’s Embedded Signup, with a state of the channel’s, and waits in init', async () => {
    const { channelId, url } = await createWhatsAppChannel(s);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.facebook.com/v24.0/dialog/oauth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: APP_ID,
      config_id: SIGNUP_CONFIG_ID,
      response_type: 'code',
      redirect_uri: `${s.base}/hooks/wapi/authorized`,
    });
    expect(url.searchParams.get('state')).toMatch(new RegExp(`^${channelId}\\.`));
    expect(await channel(channelId)).toMatchObject({ status: 'init', reason: null, url: url.toString() });
    expect(s.meta.calls).toEqual([]);
    const frame = await openFrame(s.t, s.token, 'channels', {});
    const offered = (await s.t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
    expect(offered.filter((x) => x.creatable).map((x) => x.transport)).toContain('wapi');
  });

  it('connects the number the owner comes back with: the code exchanged, the account subscribed, the number registered, active with its tier', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    const { channelId, url } = await createWhatsAppChannel(s);
    await stream.since();
    const { code, token } = s.meta.signup(WABA_ID);
    const back = await comeBack(s, { code, state: url.searchParams.get('state')! });
    expect(back.status).toBe(200);
    expect(back.page).toContain('+15550100001');
    expect(await channel(channelId)).toMatchObject({ status: 'active', phone: '15550100001', name: 'Acme Shop', messenger_id: NUMBER.id, tier: 'TIER_1K' });
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['channel.status_update', { channel_id: channelId, status: 'active', reason: null }],
      ['channel.waba_tier_update', { channel_id: channelId, tier: 'TIER_1K' }],
    ]);
    expect(s.meta.subscribed(WABA_ID)).toBe(true);
    expect(s.meta.registered(NUMBER.id)).toMatch(/^\d{6}$/);
    const { rows } = await sql<{ credentials: string; messenger_account_id: string }>`select credentials, messenger_account_id from channels where id = ${channelId}`.execute(s.t.gateway.database.db);
    expect(rows[0]!.credentials).not.toContain('EAAG');
    expect(rows[0]!.messenger_account_id).toBe(WABA_ID);
    expect(s.t.gateway.channels.cipher.open(rows[0]!.credentials)).toEqual({ business_token: token, waba_id: WABA_ID, phone_number_id: NUMBER.id, pin: s.meta.registered(NUMBER.id) });
    expect(JSON.stringify(await channel(channelId))).not.toContain(token);
    // The business token travels in the Authorization header of the number's calls, never in their address.
    const numberCalls = s.meta.calls.filter((c) => c.token === token);
    expect(numberCalls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /${WABA_ID}/phone_numbers`, `POST /${WABA_ID}/subscribed_apps`, `POST /${NUMBER.id}/register`, `GET /${WABA_ID}/message_templates`]);
    expect(new Set(s.meta.calls.map((c) => c.version))).toEqual(new Set(['v24.0']));

    // The same state again: the channel is connected already, and stays as it is.
    const again = await comeBack(s, { code: s.meta.signup(WABA_ID).code, state: url.searchParams.get('state')! });
    expect(again.status).toBe(400);
    expect(again.page).toContain('used already');
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: NUMBER.id });
  });

  it('leaves the channel as it was for a forged or expired state, a declined dialog, a code Meta refuses, or an account without a free number', async () => {
    const { channelId, url } = await createWhatsAppChannel(s);
    const state = url.searchParams.get('state')!;
    const forged = await comeBack(s, { code: s.meta.signup(OTHER_WABA).code, state: `${state.slice(0, -4)}AAAA` });
    expect(forged).toMatchObject({ status: 400 });
    expect(forged.page).toContain('not one of this gateway’s');
    expect((await comeBack(s, { code: 'x', state: 'not-a-state' })).status).toBe(400);
    const declined = await comeBack(s, { error: 'access_denied', error_reason: 'user_denied', state });
    expect(declined.page).toContain('was not given');
    const refused = await comeBack(s, { code: 'AQBnot-a-code-Meta-gave', state });
    expect(refused.page).toContain('Meta did not accept');
    // Every number of the account is another channel's already.
    const taken = await comeBack(s, { code: s.meta.signup(WABA_ID).code, state });
    expect(taken.page).toContain('no phone number to connect');
    expect(await channel(channelId)).toMatchObject({ status: 'init', url: url.toString() });
    // A code Meta took once is not taken again.
    const { code } = s.meta.signup(OTHER_WABA);
    s.meta.failNext(`POST /${OTHER_WABA}/subscribed_apps`, 1, { status: 500, code: 2, message: 'Service temporarily unavailable' });
    const failing = await comeBack(s, { code, state });
    expect(failing.status).toBe(503);
    expect((await comeBack(s, { code, state })).page).toContain('Meta did not accept');
    // Past its lifetime the state is not taken, whatever the code.
    clock.advance(2 * 60 * 60_000 + 1000);
    const expired = await comeBack(s, { code: s.meta.signup(OTHER_WABA).code, state });
    expect(expired.page).toContain('expired');
    expect(await channel(channelId)).toMatchObject({ status: 'init', url: url.toString() });
  });

  it('gives a new address on reinit (the one before no longer taken), and lets the account go on delete unless another channel has it', async () => {
    const { channelId, url } = await createWhatsAppChannel(s);
    const reinit = await s.t.call('POST', `/v2/channels/${channelId}/reinit`, { token: s.token, body: { credentials: {} } });
    expect(reinit.statusCode).toBe(200);
    const fresh = new URL((await channel(channelId)).url as string);
    expect(fresh.searchParams.get('state')).not.toBe(url.searchParams.get('state'));
    const stale = await comeBack(s, { code: s.meta.signup(OTHER_WABA).code, state: url.searchParams.get('state')! });
    expect(stale.page).toContain('not one of this gateway’s');
    expect((await comeBack(s, { code: s.meta.signup(OTHER_WABA).code, state: fresh.searchParams.get('state')! })).status).toBe(200);
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: OTHER_NUMBER.id, tier: 'TIER_250', name: 'Acme Outlet' });
    // Registered with the Cloud API already: not registered again.
    expect(s.meta.registered(OTHER_NUMBER.id)).toBeUndefined();
    expect(s.meta.subscribed(OTHER_WABA)).toBe(true);
    expect((await s.t.call('DELETE', `/v2/channels/${channelId}`, { token: s.token })).statusCode).toBe(200);
    await expect.poll(() => s.meta.subscribed(OTHER_WABA)).toBe(false);
    // The first account's number is still another channel's: its subscription stays.
    expect(s.meta.subscribed(WABA_ID)).toBe(true);
  });
});
