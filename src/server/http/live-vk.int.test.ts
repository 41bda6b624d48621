import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import { ADMIN, OUTLET, SHOP, VK_APP, connectVkChannel, createVkChannel, follow, startVkSetup, visit, type VkSetup } from '../testing/vk-fixture.ts';

describe(`live vk: configuration (${databaseKind()})`, () => {
  it('refuses vk channels in the channels frame until the VK application is set', async () => {
    const { t } = await startLiveGateway({});
    try {
      const { token } = await t.newAccount();
      const frame = await openFrame(t, token, 'channels', { user: { id: 'admin-1' }, transport: 'vk' });
      const res = await t.call('POST', '/bff/channels', { token: frame, body: { transport: 'vk', credentials: {} } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ data: { fields: [{ field: 'transport', message: expect.stringContaining('VK_APP_ID and VK_APP_SECRET') }] } });
      expect((await t.call('GET', '/hooks/vk/authorized?state=x&code=y')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe(`live vk: connecting a community through VK's OAuth pages (${databaseKind()})`, () => {
  let s: VkSetup;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    s = await startVkSetup({ clock });
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.vk.close();
  });

  const channel = async (id: string) => (await s.t.call('GET', `/v2/channels/${id}`, { token: s.token })).json().data[0];
  const sealed = async (id: string) => {
    const { rows } = await sql<{ credentials: string | null }>`select credentials from channels where id = ${id}`.execute(s.t.gateway.database.db);
    return rows[0]!.credentials;
  };

  it('answers VK’s page for the owner, lists the communities they administer, and connects the one chosen with its callback server', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    const { channelId, url } = await createVkChannel(s);
    const page = new URL(url);
    expect(`${page.origin}${page.pathname}`).toBe(`${s.vk.url}/authorize`);
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ client_id: VK_APP.appId, scope: 'groups', response_type: 'code', redirect_uri: `${s.base}/hooks/vk/authorized`, v: '5.199' });
    expect(await channel(channelId)).toMatchObject({ status: 'init', url });
    await stream.since();

    s.vk.loginAs(ADMIN);
    const choice = await follow(url);
    expect(choice.status).toBe(200);
    expect(choice.links.map((l) => l.label)).toEqual([SHOP.name, OUTLET.name]);
    // The community's name is the community's own words: escaped, never markup of the page.
    expect(choice.page).toContain('Acme &lt;Shop&gt; &amp; Co');
    expect(choice.page).not.toContain('<Shop>');
    const shopStep = new URL(choice.links[0]!.url);
    expect(Object.fromEntries(shopStep.searchParams)).toMatchObject({ group_ids: String(SHOP.id), scope: 'messages,manage,photos,docs', redirect_uri: `${s.base}/hooks/vk/authorized` });
    expect(await channel(channelId)).toMatchObject({ status: 'init' });

    const done = await follow(choice.links[0]!.url);
    expect(done.status).toBe(200);
    expect(done.page).toContain('Community connected');
    expect(await channel(channelId)).toMatchObject({ status: 'active', name: SHOP.name, messenger_id: String(SHOP.id) });
    expect((await channel(channelId)).url ?? null).toBeNull();
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([['channel.status_update', { channel_id: channelId, status: 'active', reason: null }]]);

    const [server, ...others] = s.vk.serversOf(SHOP.id);
    expect(others).toEqual([]);
    expect(server).toMatchObject({ url: `${s.base}/hooks/vk/${channelId}`, status: 'ok' });
    expect(server!.events).toMatchObject({ message_new: '1', message_reply: '1', message_edit: '1', message_allow: '1', message_deny: '1' });
    expect(s.vk.messagesOn(SHOP.id)).toBe(true);
    const kept = s.t.gateway.channels.cipher.open((await sealed(channelId))!);
    expect(kept).toEqual({ access_token: expect.stringMatching(/^vk1\.a\./), group_id: String(SHOP.id), confirmation: `c0de${SHOP.id}`, secret: server!.secret_key });
    expect(server!.secret_key).toMatch(/^[0-9a-f]{40}$/);
    expect(JSON.stringify(await channel(channelId))).not.toContain(kept.access_token as string);

    // Every step's address is taken once: the owner's, and the community's.
    expect((await follow(url)).page).toContain('used already');
    expect((await follow(choice.links[1]!.url)).page).toContain('used already');
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: String(SHOP.id) });
  });

  it('leaves the channel as it was for a forged or expired state, a declined page, or a code VK refuses, and says why', async () => {
    const { channelId, url } = await createVkChannel(s);
    const state = new URL(url).searchParams.get('state')!;
    const authorized = (query: Record<string, string>) => visit(`${s.base}/hooks/vk/authorized?${new URLSearchParams(query).toString()}`);
    expect((await authorized({ code: 'x', state: `${state.slice(0, -4)}AAAA` })).page).toContain('not one of this gateway’s');
    expect((await authorized({ code: 'x', state: 'not-a-state' })).status).toBe(400);
    // A code VK does not take: the address is taken, and the channel goes on waiting at a new one.
    const refused = await authorized({ code: 'not-a-code-of-vk', state });
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.page).toContain('VK did not accept');
    const renewed = (await channel(channelId)).url as string;
    expect(renewed).not.toBe(url);
    expect(await channel(channelId)).toMatchObject({ status: 'init' });
    expect((await authorized({ code: 'x', state })).page).toContain('used already');

    s.vk.declineNext();
    const declined = await follow(renewed);
    expect(declined.page).toContain('was not given');
    const afterDecline = (await channel(channelId)).url as string;
    s.vk.loginAs(ADMIN);
    const choice = await follow(afterDecline);
    s.vk.declineNext();
    expect((await follow(choice.links[0]!.url)).page).toContain('was not given');
    // The community's address was taken by the declined page.
    s.vk.loginAs(ADMIN);
    expect((await follow(choice.links[0]!.url)).page).toContain('used already');
    expect(await channel(channelId)).toMatchObject({ status: 'init' });

    // Past its lifetime a community's link is not taken, whatever the code; the channel's own link, unused, still
    // leads on to the page of communities.
    const current = (await channel(channelId)).url as string;
    s.vk.loginAs(ADMIN);
    const stale = await follow(current);
    const outlet = stale.links.find((l) => l.label === OUTLET.name)!.url;
    const waiting = (await channel(channelId)).url as string;
    clock.advance(60 * 60_000 + 1000);
    expect((await follow(outlet)).page).toContain('expired');
    expect(await channel(channelId)).toMatchObject({ status: 'init', url: waiting });
    expect(s.vk.serversOf(OUTLET.id)).toEqual([]);
    clock.advance(24 * 60 * 60_000);
    const again = await follow(waiting);
    expect(again.status).toBe(200);
    expect(again.links.map((l) => l.label)).toEqual([SHOP.name, OUTLET.name]);
  });

  it('reconnects through the frame to another community, letting the first go, once no other channel holds it, and removes its server once deleted', async () => {
    // The frame's session of before has expired with the clock.
    s.frame = await openFrame(s.t, s.token, 'channels', { user: { id: 'admin-1' }, transport: 'vk' });
    const channelId = await connectVkChannel(s, OUTLET);
    expect(s.vk.serversOf(OUTLET.id)).toHaveLength(1);
    const reinit = await s.t.call('POST', `/bff/channels/${channelId}/reinit`, { token: s.frame, body: { credentials: {} } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    const url = (await channel(channelId)).url as string;
    expect(await channel(channelId)).toMatchObject({ status: 'init' });
    // The first test's channel holds the shop: a community is one channel's, so the shop is refused until it goes.
    const holder = s.vk.serversOf(SHOP.id).map((x) => x.url.split('/').pop()!);
    expect(holder).toHaveLength(1);
    s.vk.loginAs(ADMIN);
    const shop = (await follow(url)).links.find((l) => l.label === SHOP.name)!.url;
    expect((await follow(shop)).page).toContain('connected to another channel');
    expect(await channel(channelId)).toMatchObject({ status: 'init' });
    expect((await s.t.call('DELETE', `/v2/channels/${holder[0]}`, { token: s.token })).statusCode).toBe(200);
    const shopServers = s.vk.serversOf(SHOP.id).length;
    await connectVkChannel(s, SHOP, { channelId, url: (await channel(channelId)).url as string });
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: String(SHOP.id) });
    expect(s.vk.serversOf(OUTLET.id)).toEqual([]);
    expect(s.vk.serversOf(SHOP.id)).toHaveLength(shopServers + 1);

    const deleted = await s.t.call('DELETE', `/v2/channels/${channelId}`, { token: s.token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(s.vk.serversOf(SHOP.id).map((x) => x.url)).not.toContain(`${s.base}/hooks/vk/${channelId}`);
    expect(s.vk.serversOf(SHOP.id)).toHaveLength(shopServers);
  });
});
