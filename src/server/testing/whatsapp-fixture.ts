import { sql } from 'kysely';
import type { Clock } from '../core/ports.ts';
import { openPage, type GatewayPage } from './gateway-page.ts';
import { startLiveGateway, type TestGateway } from './harness.ts';
import { startWhatsAppEmulator, type EmulatedNumber, type WhatsAppEmulator } from './whatsapp-emulator.ts';

/** A Meta app with WhatsApp's Embedded Signup, a business with a number, and a gateway set up as the app. */

export const APP_ID = '1234567890123456';
export const APP_SECRET = 'app-secret-0123456789abcdef';
export const VERIFY_TOKEN = 'verify-token-of-the-gateway-tests';
export const SIGNUP_CONFIG_ID = '987654321098765';
export const WABA_ID = '102290129340398';
export const NUMBER: EmulatedNumber = {
  id: '110200345501442',
  display_phone_number: '+1 555-010-0001',
  verified_name: 'Acme Shop',
  messaging_limit_tier: 'TIER_1K',
  platform_type: 'NOT_APPLICABLE',
};
/** A customer, by WhatsApp id (their number). */
export const ANNA = { waId: '79001234567', name: 'Anna' };

export interface WhatsAppSetup {
  meta: WhatsAppEmulator;
  t: TestGateway;
  base: string;
  token: string;
  accountId: string;
}

/** The emulator with the business's account, and a live gateway whose callbacks the app is set up with. */
export async function startWhatsAppSetup(options: { clock?: Clock; env?: Record<string, string> } = {}): Promise<WhatsAppSetup> {
  const meta = await startWhatsAppEmulator({ appId: APP_ID, appSecret: APP_SECRET });
  meta.addAccount(WABA_ID, [{ ...NUMBER }]);
  const { t, base } = await startLiveGateway(
    { GRAPH_API_URL: meta.url, META_APP_ID: APP_ID, META_APP_SECRET: APP_SECRET, META_VERIFY_TOKEN: VERIFY_TOKEN, WHATSAPP_SIGNUP_CONFIG_ID: SIGNUP_CONFIG_ID, ...options.env },
    options.clock ? { clock: options.clock } : {},
  );
  meta.webhooks.setCallback(`${base}/hooks/whatsapp`, VERIFY_TOKEN);
  const { token, accountId } = await t.newAccount();
  return { meta, t, base, token, accountId };
}

/** Creates a wapi channel: its id and the login dialog's address it answers. */
export async function createWhatsAppChannel(setup: WhatsAppSetup): Promise<{ channelId: string; url: URL }> {
  const res = await setup.t.call('POST', '/v2/channels', { token: setup.token, body: { transport: 'wapi', credentials: {} } });
  if (res.statusCode !== 201) throw new Error(`not created: ${res.statusCode} ${res.body}`);
  const created = (res.json().data as { channel_id: string; url: string }[])[0]!;
  return { channelId: created.channel_id, url: new URL(created.url) };
}

/** The channel as `GET /v2/channels/{id}` answers it. */
export async function channelView(setup: WhatsAppSetup, channelId: string): Promise<Record<string, unknown>> {
  return (await setup.t.call('GET', `/v2/channels/${channelId}`, { token: setup.token })).json().data[0];
}

/** The channel's credentials as stored, opened. */
export async function storedCredentials(setup: WhatsAppSetup, channelId: string): Promise<Record<string, unknown>> {
  const { rows } = await sql<{ credentials: string }>`select credentials from channels where id = ${channelId}`.execute(setup.t.gateway.database.db);
  return setup.t.gateway.channels.cipher.open(rows[0]!.credentials);
}

/** The owner comes back from Meta's dialog to the address it was given, with `query`: the page's status and text. */
export async function comeBack(setup: WhatsAppSetup, query: Record<string, string>): Promise<GatewayPage> {
  return openPage(`${setup.base}/hooks/wapi/authorized?${new URLSearchParams(query).toString()}`);
}

/** Creates a channel and completes Embedded Signup for the business's account: the channel's id. */
export async function connectWhatsAppChannel(setup: WhatsAppSetup, wabaId = WABA_ID): Promise<string> {
  const { channelId, url } = await createWhatsAppChannel(setup);
  const { code } = setup.meta.signup(wabaId);
  const back = await comeBack(setup, { code, state: url.searchParams.get('state')! });
  if (back.status !== 200) throw new Error(`not connected: ${back.status} ${back.page}`);
  return channelId;
}
