import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { APP_ID, PAGE, comeBackFromLogin, createLoginChannel, startInstagramSetup, type InstagramSetup } from '../testing/instagram-fixture.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const OUTLET = { id: '104857600000002', name: 'Acme Outlet page', token: `EAAGpage${'q'.repeat(40)}`, instagram: { id: '17841400000000002', username: 'acme.outlet', name: 'Acme <b>Outlet</b>' } };
const KIOSK = { id: '104857600000003', name: 'Acme Kiosk page', token: `EAAGpage${'k'.repeat(40)}`, instagram: { id: '17841400000000003', username: 'acme.kiosk', name: 'Acme Kiosk' } };
/** A page with no Instagram account linked to it. */
const BLOG = { id: '104857600000004', name: 'Acme Blog', token: `EAAGpage${'b'.repeat(40)}` };

/** `transport: "instagram"` without credentials: the owner connects the account by Facebook Login, as the original service does. */
describe(`live instagram: connecting by Facebook Login (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: InstagramSetup;

  beforeAll(async () => {
    s = await startInstagramSetup({ clock });
    for (const page of [OUTLET, KIOSK, BLOG]) s.graph.addPage(page);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.graph.close();
  });

  const channel = async (id: string) => (await s.t.call('GET', `/v2/channels/${id}`, { token: s.token })).json().data[0] as Record<string, unknown>;
  const credentialsOf = async (id: string) => {
    const { rows } = await sql<{ credentials: string | null }>`select credentials from channels where id = ${id}`.execute(s.t.gateway.database.db);
    return rows[0]!.credentials ? s.t.gateway.channels.cipher.open(rows[0]!.credentials) : null;
  };
  const stateOf = (url: URL | string) => new URL(url).searchParams.get('state')!;

  it('answers Meta’s login dialog asking what Instagram messaging needs, as an instAPI channel waiting in init; the four fields are still needed for instAPI', async () => {
    const calls = s.graph.calls.length;
    const { channelId, url, created } = await createLoginChannel(s);
    expect(created).toEqual({ channel_id: channelId, transport: 'instAPI', status: 'init', reason: null, state: expect.any(String), url: url.toString() });
    expect(`${url.origin}${url.pathname}`).toBe('https://www.facebook.com/v24.0/dialog/oauth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: APP_ID,
      response_type: 'code',
      scope: 'instagram_basic,instagram_manage_messages,pages_manage_metadata,pages_show_list,business_management',
      redirect_uri: `${s.base}/hooks/instAPI/authorized`,
      state: expect.stringMatching(new RegExp(`^${channelId}\\.`)),
    });
    expect(await channel(channelId)).toMatchObject({ transport: 'instAPI', status: 'init', url: url.toString() });
    expect(s.graph.calls.length).toBe(calls);
    const bare = await s.t.call('POST', '/v2/channels', { token: s.token, body: { transport: 'instAPI', credentials: {} } });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().data.fields.map((f: { field: string }) => f.field)).toContain('credentials.user_token');
    const extra = await s.t.call('POST', '/v2/channels', { token: s.token, body: { transport: 'instagram', credentials: { user_token: 'x' } } });
    expect(extra.statusCode).toBe(400);
  });

  it('connects the one account the login shared: the code exchanged, the page token kept, the page subscribed, active', async () => {
    const { channelId, url } = await createLoginChannel(s);
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const code = s.graph.login({ pages: [PAGE.id, BLOG.id] });
    const back = await comeBackFromLogin(s, { code, state: stateOf(url) });
    expect(back.status).toBe(200);
    expect(back.page).toContain('@acme.shop');
    expect(await channel(channelId)).toMatchObject({ transport: 'instAPI', status: 'active', username: 'acme.shop', name: 'Acme Shop', messenger_id: PAGE.instagram.id });
    expect((await channel(channelId)).url ?? null).toBeNull();
    expect(await credentialsOf(channelId)).toEqual({ username: 'acme.shop', page_id: PAGE.id, inst_id: PAGE.instagram.id, page_token: PAGE.token });
    expect(s.graph.subscribedFields(PAGE.id)).toEqual(['messages', 'messaging_postbacks', 'message_reads', 'message_reactions']);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([['channel.status_update', { channel_id: channelId, status: 'active', reason: null }]]);
    // The same return again finds the channel connected: nothing is asked of Meta.
    const calls = s.graph.calls.length;
    expect((await comeBackFromLogin(s, { code, state: stateOf(url) })).status).toBe(400);
    expect(s.graph.calls.length).toBe(calls);
  });

  it('offers the accounts no other channel has when the login shared several, escaped, and connects the one chosen once', async () => {
    const { channelId, url } = await createLoginChannel(s);
    const shown = await comeBackFromLogin(s, { code: s.graph.login({ pages: [PAGE.id, OUTLET.id, KIOSK.id, BLOG.id] }), state: stateOf(url) });
    expect(shown.status).toBe(200);
    expect(shown.page).toContain('Choose an Instagram account');
    // acme.shop is the first channel's already; the page without an account is not offered.
    expect(shown.links.map((l) => l.label)).toEqual(['@acme.outlet · Acme Outlet page', '@acme.kiosk · Acme Kiosk page']);
    // The dialog's state is used up: the channel waits at a new address.
    expect((await channel(channelId)).url).not.toBe(url.toString());
    expect(await credentialsOf(channelId)).toMatchObject({ signup: { options: [{ id: OUTLET.id }, { id: KIOSK.id }] } });
    const outlet = shown.links[0]!.url;
    const chosen = await (await fetch(outlet)).text();
    expect(chosen).toContain('@acme.outlet');
    expect(chosen).not.toContain('<b>Outlet</b>');
    expect(await channel(channelId)).toMatchObject({ status: 'active', username: 'acme.outlet', messenger_id: OUTLET.instagram.id });
    expect(await credentialsOf(channelId)).toEqual({ username: 'acme.outlet', page_id: OUTLET.id, inst_id: OUTLET.instagram.id, page_token: OUTLET.token });
    expect(s.graph.subscribedFields(OUTLET.id)).not.toBeNull();
    // Following a link of the page again connects nothing more.
    expect((await fetch(outlet)).status).toBe(400);
    expect((await fetch(shown.links[1]!.url)).status).toBe(400);
    expect(s.graph.subscribedFields(KIOSK.id)).toBeNull();
  });

  it('leaves the channel as it was, and says why, where the login gave nothing to connect', async () => {
    const { channelId, url } = await createLoginChannel(s);
    const state = stateOf(url);
    const declined = await comeBackFromLogin(s, { error: 'access_denied', state });
    expect(declined).toMatchObject({ status: 400 });
    expect(declined.page).toContain('login was not completed');
    expect((await comeBackFromLogin(s, { code: 'AQDnot-a-code-of-meta', state })).page).toContain('Meta did not accept the login');
    expect((await comeBackFromLogin(s, { code: s.graph.login({ pages: [BLOG.id] }), state })).page).toContain('has an Instagram business account that is not connected');
    // Every account shared is another channel's.
    expect((await comeBackFromLogin(s, { code: s.graph.login({ pages: [PAGE.id, OUTLET.id] }), state })).status).toBe(400);
    // Permissions left out in the dialog.
    const partial = await comeBackFromLogin(s, { code: s.graph.login({ pages: [KIOSK.id], permissions: ['pages_show_list', 'instagram_basic'] }), state });
    expect(partial.page).toContain('permissions Instagram messaging needs');
    expect(await channel(channelId)).toMatchObject({ status: 'init', url: url.toString() });
    // A state the gateway did not sign, or one that expired.
    expect((await comeBackFromLogin(s, { code: 'x', state: `${channelId}.9999999999.nonce.forged` })).page).toContain('not one of this gateway’s');
    clock.advance(3 * 60 * 60_000);
    expect((await comeBackFromLogin(s, { code: s.graph.login({ pages: [KIOSK.id] }), state })).page).toContain('has expired');
  });

  it('reconnects by logging in again on a reinit without credentials: the address before is no longer taken', async () => {
    const { channelId, url } = await createLoginChannel(s);
    const reinit = await s.t.call('POST', `/v2/channels/${channelId}/reinit`, { token: s.token, body: { credentials: {} } });
    expect(reinit.statusCode).toBe(200);
    const again = new URL((await channel(channelId)).url as string);
    expect(stateOf(again)).not.toBe(stateOf(url));
    expect((await comeBackFromLogin(s, { code: s.graph.login({ pages: [KIOSK.id] }), state: stateOf(url) })).status).toBe(400);
    const back = await comeBackFromLogin(s, { code: s.graph.login({ pages: [KIOSK.id] }), state: stateOf(again) });
    expect(back.status).toBe(200);
    expect(await channel(channelId)).toMatchObject({ status: 'active', username: 'acme.kiosk' });
  });
});
