import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../testing/gateway-page.ts';
import { databaseKind } from '../testing/test-database.ts';
import type { EmulatedNumber } from '../testing/whatsapp-emulator.ts';
import { comeBack, createWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup, channelView, storedCredentials } from '../testing/whatsapp-fixture.ts';

const WABA = '102290129340600';
const number = (n: number): EmulatedNumber => ({
  id: `11020034550160${n}`,
  display_phone_number: `+1 555-010-060${n}`,
  verified_name: `Acme ${n}`,
  messaging_limit_tier: 'TIER_1K',
  platform_type: 'NOT_APPLICABLE',
});
const [NORTH, SOUTH, EAST] = [number(1), number(2), number(3)] as [EmulatedNumber, EmulatedNumber, EmulatedNumber];

const follow = openPage;

/** Choices that meet: the same number's link followed twice at once, two channels choosing one number at once. */
describe(`live whatsapp: choices that meet (${databaseKind()})`, () => {
  let s: WhatsAppSetup;

  beforeAll(async () => {
    s = await startWhatsAppSetup();
    s.meta.addAccount(WABA, [NORTH, SOUTH, EAST], []);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const channel = (id: string) => channelView(s, id);
  const credentialsOf = (id: string) => storedCredentials(s, id);
  /** A new channel signed up for the account: the link of its page that chooses `chosen`. */
  const choosing = async (chosen: EmulatedNumber) => {
    const { channelId } = await createWhatsAppChannel(s);
    const state = new URL((await channel(channelId)).url as string).searchParams.get('state')!;
    const page = await comeBack(s, { code: s.meta.signup(WABA).code, state });
    const link = page.links.map((l) => l.url).find((url) => new URL(url).searchParams.get('state')?.split('.')[3] === chosen.id)!;
    expect(link).toBeDefined();
    return { channelId, link };
  };

  it('takes a number’s link once when it is followed twice at once: the number is registered with the PIN the channel keeps', async () => {
    const { channelId, link } = await choosing(EAST);
    const pages = await Promise.all([follow(link), follow(link)]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 400]);
    expect(pages.find((p) => p.status === 400)!.page).toContain('used already');
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: EAST.id });
    expect(s.meta.registered(EAST.id)).toMatch(/^\d{6}$/);
    expect((await credentialsOf(channelId)).pin).toBe(s.meta.registered(EAST.id));
  });

  it('connects a number chosen by two channels at once to one of them only', async () => {
    const first = await choosing(NORTH);
    const second = await choosing(NORTH);
    const pages = await Promise.all([follow(first.link), follow(second.link)]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 400]);
    expect(pages.find((p) => p.status === 400)!.page).toContain('connected to another channel');
    const statuses = [(await channel(first.channelId)).status, (await channel(second.channelId)).status];
    expect(statuses.sort()).toEqual(['active', 'init']);
    const holders = await s.t.gateway.channels.store.channels.listByMessengerId('wapi', NORTH.id);
    expect(holders).toHaveLength(1);
  });
});
