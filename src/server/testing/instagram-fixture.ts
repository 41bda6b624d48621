import type { Clock } from '../core/ports.ts';
import { startGraphEmulator, type EmulatedPage, type GraphEmulator } from './graph-emulator.ts';
import { openPage, type GatewayPage } from './gateway-page.ts';
import { startLiveGateway, type TestGateway } from './harness.ts';

/** A Meta app, a Facebook user who manages a page linked to an Instagram business account, and a gateway set up as the app. */

export const APP_ID = '1234567890123456';
export const APP_SECRET = 'app-secret-0123456789abcdef';
export const VERIFY_TOKEN = 'verify-token-of-the-gateway-tests';
export const USER_TOKEN = `EAAGuser${'u'.repeat(40)}`;
/** Everything Instagram messaging needs of the user. */
export const PERMISSIONS = ['instagram_basic', 'instagram_manage_messages', 'pages_manage_metadata', 'pages_show_list', 'pages_read_engagement'];
export const PAGE: EmulatedPage & { instagram: NonNullable<EmulatedPage['instagram']> } = {
  id: '104857600000001',
  name: 'Acme Shop page',
  token: `EAAGpage${'p'.repeat(40)}`,
  instagram: { id: '17841400000000001', username: 'acme.shop', name: 'Acme Shop' },
};
export const CREDENTIALS = { username: 'acme.shop', page_id: PAGE.id, inst_id: PAGE.instagram.id, user_token: USER_TOKEN };
/** Customers, by their Instagram-scoped ids. */
export const ANNA = { igsid: '6100000000000001', username: 'anna.k', name: 'Anna K' };
export const OLEG = { igsid: '6100000000000002', username: 'oleg_shop', name: 'Oleg' };

export interface InstagramSetup {
  graph: GraphEmulator;
  t: TestGateway;
  base: string;
  token: string;
  accountId: string;
}

/**
 * Meta's emulator with the user (their token short-lived, as the login gives it), the page and two customers, and a
 * live gateway whose callback the app is set up with. With a clock, the emulator's tokens live on it too.
 */
export async function startInstagramSetup(options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<InstagramSetup> {
  const clock = options.clock;
  const graph = await startGraphEmulator(APP_SECRET, { appId: APP_ID, ...(clock ? { now: () => clock.now().getTime() } : {}) });
  graph.addUser(USER_TOKEN, { permissions: PERMISSIONS, pages: [PAGE.id] });
  graph.addPage(PAGE);
  for (const person of [ANNA, OLEG]) graph.addPerson(person.igsid, { username: person.username, name: person.name });
  const { t, base } = await startLiveGateway(
    { GRAPH_API_URL: graph.url, META_APP_ID: APP_ID, META_APP_SECRET: APP_SECRET, META_VERIFY_TOKEN: VERIFY_TOKEN, ...options.env },
    options.clock ? { clock: options.clock } : {},
  );
  graph.webhooks.setCallback(`${base}/hooks/instagram`, VERIFY_TOKEN);
  const { token, accountId } = await t.newAccount();
  return { graph, t, base, token, accountId };
}

/** Connects the page's account as a channel; its id. */
export async function connectInstagramChannel(setup: InstagramSetup, credentials: Record<string, string> = CREDENTIALS): Promise<string> {
  const res = await setup.t.call('POST', '/v2/channels', { token: setup.token, body: { transport: 'instAPI', credentials } });
  if (res.statusCode !== 201) throw new Error(`not connected: ${res.statusCode} ${res.body}`);
  return (res.json().data as { channel_id: string }[])[0]!.channel_id;
}

/** Creates a channel as the original service's clients do (`instagram`, no credentials): its id and the login dialog's address. */
export async function createLoginChannel(setup: InstagramSetup): Promise<{ channelId: string; url: URL; created: Record<string, unknown> }> {
  const res = await setup.t.call('POST', '/v2/channels', { token: setup.token, body: { transport: 'instagram', credentials: {} } });
  if (res.statusCode !== 201) throw new Error(`not created: ${res.statusCode} ${res.body}`);
  const created = (res.json().data as { channel_id: string; url: string }[])[0]!;
  return { channelId: created.channel_id, url: new URL(created.url), created };
}

/** The owner comes back from Facebook Login to the address it was given, with `query`: the page's status and text. */
export const comeBackFromLogin = (setup: InstagramSetup, query: Record<string, string>): Promise<GatewayPage> =>
  openPage(`${setup.base}/hooks/instAPI/authorized?${new URLSearchParams(query).toString()}`);
