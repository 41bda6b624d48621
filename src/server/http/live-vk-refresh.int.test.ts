import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFrame } from '../testing/frames.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import type { TestGateway } from '../testing/harness.ts';
import { lastingDatabase, startLiveAt, type RestartAt } from '../testing/restarted-gateway.ts';
import { databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { startVkEmulator, type VkEmulator } from '../testing/vk-emulator.ts';
import { ANNA, OUTLET, QUICK, SECRET_KEY, SHOP, VK_APP, connectVkChannel } from '../testing/vk-fixture.ts';

/** Gateways started one after another on one database, as a new PUBLIC_URL restarts them: the communities' servers follow, or not. */
describe(`live vk: callback servers brought up to date (${databaseKind()})`, () => {
  let vk: VkEmulator;
  let database: TestDatabase;
  let t: TestGateway | null = null;
  let base = '';
  let channelId: string;

  /** A live gateway on the shared database (see RestartAt), once its start-up pass of the hook refresh ended: that pass. */
  const start = async (at: RestartAt = {}) => {
    await t?.close();
    const env = { VK_APP_ID: VK_APP.appId, VK_APP_SECRET: VK_APP.appSecret, VK_API_URL: vk.url, VK_OAUTH_URL: vk.url, SECRET_KEY };
    ({ t, base } = await startLiveAt(database, env, at, { vkLimits: QUICK }));
    return t.gateway.botHooks.refresh();
  };
  const fingerprint = async () =>
    (await sql<{ hook_fingerprint: string | null }>`select hook_fingerprint from channels where id = ${channelId}`.execute(t!.gateway.database.db)).rows[0]!.hook_fingerprint;

  beforeAll(async () => {
    vk = await startVkEmulator(VK_APP);
    vk.addCommunity({ ...SHOP });
    vk.addCommunity({ ...OUTLET });
    vk.addUser(ANNA.id, ANNA.first, ANNA.last);
    database = await lastingDatabase('gw-vk-hooks-');
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    await vk?.close();
  });

  it('records what connecting registered, and moves a server from PREVIOUS_PUBLIC_URL only, confirmed by the channel’s code', async () => {
    await start();
    const { token, accountId } = await t!.newAccount();
    const frame = await openFrame(t!, token, 'channels', { user: { id: 'admin-1' }, transport: 'vk' });
    channelId = await connectVkChannel({ vk, t: t!, base, token, accountId, frame });
    const connected = await fingerprint();
    expect(connected).toMatch(/^v1:/);
    expect(await t!.gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, elsewhere: 0, failed: 0 });

    const old = base;
    // Another address, as far as this gateway knows: another deployment may have the community's server.
    expect(await start()).toMatchObject({ refreshed: 0, elsewhere: 1, failed: 0 });
    expect(vk.serversOf(SHOP.id).map((s) => s.url)).toEqual([`${old}/hooks/vk/${channelId}`]);

    // The operator names the old address: the server is moved from it, and VK confirms it with the new gateway.
    const edits = vk.calls.filter((c) => c.method === 'groups.editCallbackServer').length;
    expect(await start({ port: Number(new URL(base).port), previousUrl: old })).toMatchObject({ refreshed: 1, elsewhere: 0, failed: 0 });
    expect(vk.serversOf(SHOP.id)).toEqual([expect.objectContaining({ url: `${base}/hooks/vk/${channelId}`, status: 'ok' })]);
    expect(vk.calls.filter((c) => c.method === 'groups.editCallbackServer').length).toBe(edits + 1);
    expect(await fingerprint()).not.toBe(connected);
    const { answers } = await vk.customerWrites(SHOP.id, { from: ANNA.id, text: 'Вы переехали?' });
    expect(answers).toEqual([{ status: 200, text: 'ok' }]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${channelId} and text = 'Вы переехали?'`.execute(t!.gateway.database.db);
    expect(rows[0]!.n).toBe(1);
    // Up to date now: the next pass leaves it alone.
    expect(await t!.gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, elsewhere: 0, failed: 0 });
  });

  it('registers again a server VK did not confirm while the channel was connected, until VK confirms it', async () => {
    const clock = new ManualClock(Date.now());
    await start({ port: Number(new URL(base).port), clock });
    const { token, accountId } = await t!.newAccount();
    const frame = await openFrame(t!, token, 'channels', { user: { id: 'admin-1' }, transport: 'vk' });
    // VK's confirmation went astray (to another process, say): the server is not `ok`, and no fingerprint is kept.
    vk.skipConfirmations(1);
    channelId = await connectVkChannel({ vk, t: t!, base, token, accountId, frame }, OUTLET);
    expect(vk.serversOf(OUTLET.id)).toEqual([expect.objectContaining({ url: `${base}/hooks/vk/${channelId}`, status: 'unconfigured' })]);
    expect(await fingerprint()).toBeNull();
    // Still not confirmed on the next pass: counted as failed, and tried again.
    vk.skipConfirmations(1);
    expect(await t!.gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, failed: 1 });
    expect(await fingerprint()).toBeNull();
    // Another pass soon after leaves it to the one that claimed it; a later one registers it.
    expect(await t!.gateway.botHooks.refresh()).toMatchObject({ refreshed: 0, failed: 0 });
    clock.advance(5 * 60_000);
    expect(await t!.gateway.botHooks.refresh()).toMatchObject({ refreshed: 1, failed: 0 });
    expect(vk.serversOf(OUTLET.id)).toEqual([expect.objectContaining({ url: `${base}/hooks/vk/${channelId}`, status: 'ok' })]);
    expect(await fingerprint()).toMatch(/^v1:/);
  });
});
