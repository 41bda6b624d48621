import type { Clock } from '../core/ports.ts';
import type { CallLimits } from '../transports/call-pacer.ts';
import { openFrame } from './frames.ts';
import { openPage, type GatewayPage } from './gateway-page.ts';
import { startLiveGateway, type TestGateway } from './harness.ts';
import { startVkEmulator, type VkEmulator } from './vk-emulator.ts';

/** A VK application, a user who administers two communities, a customer, and a gateway set up with the application. */

export const VK_APP = { appId: '51234567', appSecret: 'vk-app-secret-0123456789' };
export const ADMIN = 501;
export const SHOP = { id: 77, name: 'Acme <Shop> & Co', screen_name: 'acme_shop', admins: [ADMIN] };
export const OUTLET = { id: 78, name: 'Acme Outlet', screen_name: 'acme_outlet', admins: [ADMIN] };
export const ANNA = { id: 1001, first: 'Анна', last: 'Петрова' };
export const SECRET_KEY = 'v'.repeat(40);
export const QUICK: CallLimits = { bot: { limit: 100, interval: 1000 }, chat: { limit: 100, interval: 1000 } };

export interface VkSetup {
  vk: VkEmulator;
  t: TestGateway;
  base: string;
  token: string;
  accountId: string;
  /** A session of the channels frame, where vk channels are connected. */
  frame: string;
}

export async function startVkSetup(options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<VkSetup> {
  const vk = await startVkEmulator(VK_APP);
  vk.addCommunity({ ...SHOP });
  vk.addCommunity({ ...OUTLET });
  vk.addUser(ANNA.id, ANNA.first, ANNA.last);
  const env = { VK_APP_ID: VK_APP.appId, VK_APP_SECRET: VK_APP.appSecret, VK_API_URL: vk.url, VK_OAUTH_URL: vk.url, SECRET_KEY, ...options.env };
  const { t, base } = await startLiveGateway(env, { vkLimits: QUICK, ...(options.clock ? { clock: options.clock } : {}) });
  const { token, accountId } = await t.newAccount();
  const frame = await openFrame(t, token, 'channels', { user: { id: 'admin-1' }, transport: 'vk' });
  return { vk, t, base, token, accountId, frame };
}

/** Creates a vk channel in the channels frame: its id and VK's OAuth page it answers. */
export async function createVkChannel(s: VkSetup): Promise<{ channelId: string; url: string }> {
  const res = await s.t.call('POST', '/bff/channels', { token: s.frame, body: { transport: 'vk', credentials: {} } });
  if (res.statusCode !== 201) throw new Error(`not created: ${res.statusCode} ${res.body}`);
  const created = (res.json().data as { channel_id: string; url: string }[])[0]!;
  return { channelId: created.channel_id, url: created.url };
}

/** The browser follows an address on VK's OAuth server to the gateway's page it is sent back to: its status, text and links. */
export async function follow(url: string): Promise<GatewayPage & { back: string }> {
  const atVk = await fetch(url, { redirect: 'manual' });
  const back = atVk.headers.get('location');
  if (atVk.status !== 302 || !back) throw new Error(`VK did not send the browser back: ${atVk.status} ${await atVk.text()}`);
  return visit(back);
}

/** The gateway's page at an address (a return from VK's page). */
export async function visit(back: string): Promise<GatewayPage & { back: string }> {
  return { ...(await openPage(back)), back };
}

/** The whole connect as the owner goes through it: VK's page, the choice of `community`, VK's page for its key. */
export async function connectVkChannel(s: VkSetup, community: { name: string } = SHOP, existing?: { channelId: string; url: string }): Promise<string> {
  const { channelId, url } = existing ?? (await createVkChannel(s));
  s.vk.loginAs(ADMIN);
  const choice = await follow(url);
  const link = choice.links.find((l) => l.label === community.name);
  if (!link) throw new Error(`no choice of ${community.name}: ${choice.status} ${choice.page}`);
  const done = await follow(link.url);
  if (done.status !== 200) throw new Error(`not connected: ${done.status} ${done.page}`);
  return channelId;
}
