import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKind } from '../testing/test-database.ts';
import { ADMIN, ANNA, OUTLET, SHOP, connectVkChannel, createVkChannel, follow, startVkSetup, type VkSetup } from '../testing/vk-fixture.ts';

/** Returns that meet: the same link followed twice at once, two channels choosing one community at once. */
describe(`live vk: connects that meet (${databaseKind()})`, () => {
  let s: VkSetup;

  beforeAll(async () => {
    s = await startVkSetup();
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.vk.close();
  });

  const channel = async (id: string) => (await s.t.call('GET', `/v2/channels/${id}`, { token: s.token })).json().data[0];
  const kept = async (id: string) => {
    const { rows } = await sql<{ credentials: string | null }>`select credentials from channels where id = ${id}`.execute(s.t.gateway.database.db);
    return s.t.gateway.channels.cipher.open(rows[0]!.credentials!);
  };
  const remove = async (id: string) => expect((await s.t.call('DELETE', `/v2/channels/${id}`, { token: s.token })).statusCode).toBe(200);
  /** The link of the page of communities that chooses `community`, for a new channel. */
  const communityLink = async (community: { name: string }) => {
    const { channelId, url } = await createVkChannel(s);
    s.vk.loginAs(ADMIN);
    const link = (await follow(url)).links.find((l) => l.label === community.name)!.url;
    return { channelId, link };
  };

  it('takes a community’s link once when it is followed twice at once: one return connects, with the secret VK signs with', async () => {
    const { channelId, link } = await communityLink(SHOP);
    const pages = await Promise.all([follow(link), follow(link)]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 400]);
    expect(pages.find((p) => p.status === 400)!.page).toContain('used already');
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: String(SHOP.id) });

    const servers = s.vk.serversOf(SHOP.id);
    expect(servers).toHaveLength(1);
    expect((await kept(channelId)).secret).toBe(servers[0]!.secret_key);
    const { answers } = await s.vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Добрый день' });
    expect(answers).toEqual([{ status: 200, text: 'ok' }]);
    await remove(channelId);
  });

  it('gives a community’s link back when VK fails on the way: the same link connects once VK answers', async () => {
    const { channelId, link } = await communityLink(OUTLET);
    const waiting = (await channel(channelId)).url as string;
    s.vk.failNext('groups.getCallbackConfirmationCode', 10);
    expect((await follow(link)).status).toBe(503);
    expect(await channel(channelId)).toMatchObject({ status: 'init', url: waiting });
    expect((await follow(link)).status).toBe(200);
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: String(OUTLET.id) });
    await remove(channelId);
  });

  it('refuses a community another channel holds, registering nothing with VK, and the channel’s link still leads on', async () => {
    const holder = await connectVkChannel(s, SHOP);
    const { channelId, link } = await communityLink(SHOP);
    const refused = await follow(link);
    expect(refused.status).toBe(400);
    expect(refused.page).toContain('connected to another channel');
    expect(s.vk.serversOf(SHOP.id).map((x) => x.url)).toEqual([`${s.base}/hooks/vk/${holder}`]);
    expect(await channel(channelId)).toMatchObject({ status: 'init' });
    await connectVkChannel(s, OUTLET, { channelId, url: (await channel(channelId)).url as string });
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: String(OUTLET.id) });

    // The holder itself connects its own community again.
    const reinit = await s.t.call('POST', `/bff/channels/${holder}/reinit`, { token: s.frame, body: { credentials: {} } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    await connectVkChannel(s, SHOP, { channelId: holder, url: (await channel(holder)).url as string });
    expect(await channel(holder)).toMatchObject({ status: 'active', messenger_id: String(SHOP.id) });
    expect(s.vk.serversOf(SHOP.id).map((x) => x.url)).toEqual([`${s.base}/hooks/vk/${holder}`]);
    await remove(holder);
    await remove(channelId);
  });

  it('connects a community chosen by two channels at once to one of them only, and leaves VK one server, the winner’s', async () => {
    const first = await communityLink(SHOP);
    const second = await communityLink(SHOP);
    const pages = await Promise.all([follow(first.link), follow(second.link)]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 400]);
    expect(pages.find((p) => p.status === 400)!.page).toContain('connected to another channel');
    const states = [(await channel(first.channelId)).status, (await channel(second.channelId)).status];
    expect(states.sort()).toEqual(['active', 'init']);
    const winner = (await channel(first.channelId)).status === 'active' ? first.channelId : second.channelId;
    const servers = s.vk.serversOf(SHOP.id);
    expect(servers.map((x) => x.url)).toEqual([`${s.base}/hooks/vk/${winner}`]);
    expect((await kept(winner)).secret).toBe(servers[0]!.secret_key);
  });
});
