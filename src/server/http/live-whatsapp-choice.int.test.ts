import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { linksOf, openPage } from '../testing/gateway-page.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import type { EmulatedNumber } from '../testing/whatsapp-emulator.ts';
import { comeBack, createWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup, channelView, storedCredentials } from '../testing/whatsapp-fixture.ts';

const WABA = '102290129340500';
const number = (n: number, extra: Partial<EmulatedNumber>): EmulatedNumber => ({
  id: `11020034550150${n}`,
  display_phone_number: `+1 555-010-050${n}`,
  verified_name: `Acme ${n}`,
  messaging_limit_tier: 'TIER_1K',
  platform_type: 'NOT_APPLICABLE',
  ...extra,
});
const NORTH = number(1, { verified_name: 'Acme <b>North</b> & Co', quality_rating: 'GREEN' });
const SOUTH = number(2, { quality_rating: 'YELLOW', platform_type: 'CLOUD_API', messaging_limit_tier: 'TIER_10K' });
const EAST = number(3, { quality_rating: 'RED' });
const WEST = number(4, {});
const ORDER = { id: '7201', name: 'order_ready', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Order {{1}} is ready' }] };

/** The links of a page of the gateway's, by label. */
const linksByLabel = (page: string): Map<string, string> => new Map(linksOf(page).map((l) => [l.label, l.url]));
const follow = openPage;

/** A WhatsApp Business Account with several numbers: the owner chooses the one the channel connects. */
describe(`live whatsapp: choosing among an account’s numbers (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: WhatsAppSetup;

  beforeAll(async () => {
    s = await startWhatsAppSetup({ clock });
    s.meta.addAccount(WABA, [NORTH, SOUTH, EAST, WEST], [ORDER]);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const channel = (id: string) => channelView(s, id);
  const credentialsOf = (id: string) => storedCredentials(s, id);
  /** Signs up for the account at the channel's current address: the page the owner is shown. */
  const signUp = async (channelId: string) => {
    const state = new URL((await channel(channelId)).url as string).searchParams.get('state')!;
    return { state, ...(await comeBack(s, { code: s.meta.signup(WABA).code, state })) };
  };

  it('shows the free numbers with their verified names and quality, escaped, and connects the one chosen as a single number is connected', async () => {
    const { channelId, url } = await createWhatsAppChannel(s);
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const shown = await signUp(channelId);
    expect(shown.status).toBe(200);
    expect(shown.page).toContain('Choose a WhatsApp number');
    expect(shown.page).not.toContain('<b>North</b>');
    expect(shown.page).toContain('Acme &lt;b&gt;North&lt;/b&gt; &amp; Co');
    const links = linksByLabel(shown.page);
    expect([...links.keys()]).toEqual([
      '+1 555-010-0501 · Acme <b>North</b> & Co · quality high',
      '+1 555-010-0502 · Acme 2 · quality medium',
      '+1 555-010-0503 · Acme 3 · quality low',
      '+1 555-010-0504 · Acme 4 · quality not rated yet',
    ]);
    for (const link of links.values()) expect(link.startsWith(`${s.base}/hooks/wapi/authorized?state=`)).toBe(true);
    // Nothing is asked of Meta for a number until one is chosen; the channel waits at a new address, the token sealed.
    expect(s.meta.subscribed(WABA)).toBe(false);
    const waiting = await channel(channelId);
    expect(waiting).toMatchObject({ status: 'init', messenger_id: null });
    expect(waiting.url).not.toBe(url.toString());
    expect(JSON.stringify(waiting)).not.toContain('EAAG');
    expect(await stream.since()).toEqual([]);

    const chosen = await follow(links.get('+1 555-010-0502 · Acme 2 · quality medium')!);
    expect(chosen.status).toBe(200);
    expect(chosen.page).toContain('+15550100502');
    expect(await channel(channelId)).toMatchObject({ status: 'active', phone: '15550100502', name: 'Acme 2', messenger_id: SOUTH.id, tier: 'TIER_10K' });
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['channel.status_update', { channel_id: channelId, status: 'active', reason: null }],
      ['channel.waba_tier_update', { channel_id: channelId, tier: 'TIER_10K' }],
    ]);
    expect(s.meta.subscribed(WABA)).toBe(true);
    // Registered with the Cloud API already: not registered again.
    expect(s.meta.registered(SOUTH.id)).toBeUndefined();
    expect(((await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data as { name: string }[]).map((t) => t.name)).toEqual(['order_ready']);
    // The channel keeps the number's credentials only: the token waiting for the choice is not kept beside them.
    expect(Object.keys(await credentialsOf(channelId)).sort()).toEqual(['business_token', 'phone_number_id', 'pin', 'waba_id']);

    // The page is taken once: its links, and the login dialog's state before it, find the channel connected.
    for (const link of [links.get('+1 555-010-0502 · Acme 2 · quality medium')!, links.get('+1 555-010-0503 · Acme 3 · quality low')!]) {
      const again = await follow(link);
      expect(again.status).toBe(400);
      expect(again.page).toContain('used already');
    }
    expect((await comeBack(s, { code: s.meta.signup(WABA).code, state: shown.state })).status).toBe(400);
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: SOUTH.id });
    expect(await stream.since()).toEqual([]);
  });

  it('refuses a forged, expired or stale choice and a number another channel took meanwhile, the channel staying as it was', async () => {
    const { channelId } = await createWhatsAppChannel(s);
    const first = await signUp(channelId);
    const links = linksByLabel(first.page);
    // SOUTH is the first test's channel's: not offered.
    expect([...links.keys()].map((l) => l.slice(0, 15))).toEqual(['+1 555-010-0501', '+1 555-010-0503', '+1 555-010-0504']);
    const [northLink, eastLink] = [...links.values()] as [string, string];
    const waiting = await channel(channelId);
    const unchanged = async () => expect(await channel(channelId)).toMatchObject({ status: 'init', messenger_id: null, url: waiting.url });

    // Another number put in the link: its signature no longer holds.
    const forged = await follow(northLink.replace(NORTH.id, SOUTH.id));
    expect(forged).toMatchObject({ status: 400 });
    expect(forged.page).toContain('not one of this gateway’s');
    await unchanged();

    // Another channel connects NORTH meanwhile (its own page offers it): NORTH is refused here, the rest of the page still stands.
    const other = await createWhatsAppChannel(s);
    expect((await follow(linksByLabel((await signUp(other.channelId)).page).get('+1 555-010-0501 · Acme <b>North</b> & Co · quality high')!)).status).toBe(200);
    expect(await channel(other.channelId)).toMatchObject({ status: 'active', messenger_id: NORTH.id });
    const taken = await follow(northLink);
    expect(taken.status).toBe(400);
    expect(taken.page).toContain('connected to another channel meanwhile');
    await unchanged();
    expect(s.meta.registered(NORTH.id)).toMatch(/^\d{6}$/);

    // Past its lifetime the page is not taken.
    clock.advance(30 * 60_000 + 1000);
    const expired = await follow(eastLink);
    expect(expired.status).toBe(400);
    expect(expired.page).toContain('page of numbers has expired');
    await unchanged();

    // Signed up again, then reinit: the second page's links are stale.
    const second = linksByLabel((await signUp(channelId)).page);
    expect(second.size).toBe(2);
    expect((await s.t.call('POST', `/v2/channels/${channelId}/reinit`, { token: s.token, body: { credentials: {} } })).statusCode).toBe(200);
    const stale = await follow([...second.values()][0]!);
    expect(stale.status).toBe(400);
    expect(stale.page).toContain('used already');
    expect(await channel(channelId)).toMatchObject({ status: 'init', messenger_id: null });
    expect(s.meta.registered(EAST.id)).toBeUndefined();

    // The current address still connects: a third page, WEST chosen; Meta failing once leaves the page standing.
    const third = linksByLabel((await signUp(channelId)).page);
    const west = third.get('+1 555-010-0504 · Acme 4 · quality not rated yet')!;
    s.meta.failNext(`POST /${WEST.id}/register`, 1, { status: 500, code: 2, message: 'Service temporarily unavailable' });
    expect((await follow(west)).status).toBe(503);
    expect(await channel(channelId)).toMatchObject({ status: 'init', messenger_id: null });
    expect((await follow(west)).status).toBe(200);
    expect(await channel(channelId)).toMatchObject({ status: 'active', messenger_id: WEST.id, name: 'Acme 4' });
    expect(s.meta.registered(WEST.id)).toMatch(/^\d{6}$/);
  });
});
