import { channelClient } from './channel-client.ts';
import type { TestGateway } from './harness.ts';
import { activeChannel } from './messaging.ts';

/** An account as a v3 CRM holds it: its API key (the client token), a sidecar key, and channels by transport. */
export interface V3Account {
  accountId: string;
  apiKey: string;
  sidecarKey: string;
  /** One active channel per transport asked for, by transport. */
  channels: Record<string, string>;
}

/** A new account of the test gateway with its two v3 keys and, for each transport named, an active channel. */
export async function v3Account(t: TestGateway, transports: readonly string[] = []): Promise<V3Account> {
  const { accountId, token: apiKey } = await t.newAccount();
  const sidecarKey = (await t.issueToken(accountId, 'sidecar')).token;
  const api = channelClient(t, apiKey);
  const channels: Record<string, string> = {};
  for (const transport of transports) channels[transport] = await activeChannel(t, api, transport);
  return { accountId, apiKey, sidecarKey, channels };
}
