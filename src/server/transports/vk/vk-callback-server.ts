import type { HookRegistrar, OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import { hookUrl } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import { VK_API_VERSION } from './vk-api.ts';
import { communityOf, pacedCommunity, type CommunityApi, type VkDeps } from './vk-community.ts';
import { isKeyRefused } from './vk-failures.ts';

/**
 * The community's Callback API server, the gateway's address for the channel (`<PUBLIC_URL>/hooks/vk/<channel id>`),
 * as VK's methods set it (dev.vk.com): `groups.getCallbackServers` lists a community's servers (`items[]` with `id`,
 * `url`, `status`); `groups.addCallbackServer` (`url`, `title` of at most 14 characters, `secret_key`) answers its
 * `server_id`; `groups.editCallbackServer` changes one; `groups.deleteCallbackServer` removes it;
 * `groups.setCallbackSettings` sets its `api_version` and the events it gets (1 for each); `groups.setSettings`
 * with `messages=1` turns the community's messages on. A community has at most 10 servers (documented); the
 * gateway's is found among them by its address, so nothing else is kept of it.
 */

/** The events the gateway reads. */
export const VK_EVENTS = ['message_new', 'message_reply', 'message_edit', 'message_allow', 'message_deny'] as const;

/** The title the server goes by in the community's settings (VK takes at most 14 characters). */
const SERVER_TITLE = 'CRM gateway';

interface CallbackServer {
  id: number;
  url: string;
  status?: string;
}

/** The gateway's address for the channel. */
export const callbackUrl = (publicUrl: string, channelId: string): string => hookUrl(publicUrl, 'vk', channelId);

async function serversOf(api: CommunityApi, groupId: string): Promise<CallbackServer[]> {
  const answer = await api.call<{ items?: unknown }>('groups.getCallbackServers', { group_id: groupId });
  const items = Array.isArray(answer?.items) ? answer.items : [];
  return items.filter((s): s is CallbackServer => typeof s === 'object' && s !== null && typeof s.id === 'number' && typeof s.url === 'string');
}

/**
 * Points the community's server for the channel at `url` with `secret`, adding it where the community has none of
 * the gateway's for the channel (`ours`: its address now, or under PREVIOUS_PUBLIC_URL), and a second one of ours is
 * removed; its events and API version are set, and the community's messages turned on. Answers the server's status
 * as VK gives it once set (`ok` when VK's confirmation was answered).
 */
export async function registerCallbackServer(api: CommunityApi, groupId: string, url: string, secret: string, ours: (url: string) => boolean): Promise<string | null> {
  await api.call('groups.setSettings', { group_id: groupId, messages: 1 });
  const mine = (await serversOf(api, groupId)).filter((s) => ours(s.url));
  let serverId: number;
  if (mine[0]) {
    serverId = mine[0].id;
    await api.call('groups.editCallbackServer', { group_id: groupId, server_id: serverId, url, title: SERVER_TITLE, secret_key: secret });
  } else {
    const added = await api.call<{ server_id?: unknown }>('groups.addCallbackServer', { group_id: groupId, url, title: SERVER_TITLE, secret_key: secret });
    if (typeof added?.server_id !== 'number') throw new Error('VK added the callback server without its id');
    serverId = added.server_id;
  }
  for (const extra of mine.slice(1)) await api.call('groups.deleteCallbackServer', { group_id: groupId, server_id: extra.id }).catch(() => {});
  const events = Object.fromEntries(VK_EVENTS.map((e) => [e, 1]));
  await api.call('groups.setCallbackSettings', { group_id: groupId, server_id: serverId, api_version: VK_API_VERSION, ...events });
  return (await serversOf(api, groupId)).find((s) => s.id === serverId)?.status ?? null;
}

/** Removes the community's servers that are the gateway's for the channel (`ours`). */
export async function removeCallbackServers(api: CommunityApi, groupId: string, ours: (url: string) => boolean): Promise<void> {
  for (const server of (await serversOf(api, groupId)).filter((s) => ours(s.url))) {
    await api.call('groups.deleteCallbackServer', { group_id: groupId, server_id: server.id });
  }
}

/** Whether an address is the gateway's for the channel, now or under PREVIOUS_PUBLIC_URL. */
export const oursFor = (deps: Pick<VkDeps, 'publicUrl' | 'previousPublicUrl'>, channelId: string) => {
  const addresses = [callbackUrl(deps.publicUrl, channelId), ...(deps.previousPublicUrl ? [callbackUrl(deps.previousPublicUrl, channelId)] : [])];
  return (url: string) => addresses.includes(url.replace(/\/+$/, ''));
};

/** The channel's community lets the gateway's server go (the channel is deleted); a key VK no longer takes has let it go already. */
export async function letGoOfCommunity(deps: VkDeps, pacer: CallPacer, channelId: string, sealed: string | null, signal?: AbortSignal): Promise<void> {
  const community = communityOf(deps.cipher, sealed);
  if (!community) return;
  try {
    await removeCallbackServers(pacedCommunity(deps, pacer, community, signal), community.group_id, oursFor(deps, channelId));
  } catch (err) {
    if (!isKeyRefused(err)) throw err;
  }
}

/** What the gateway registers now: the address (PUBLIC_URL, and PREVIOUS_PUBLIC_URL it moves servers from) and the events. */
export const vkFingerprint = (deps: Pick<VkDeps, 'publicUrl' | 'previousPublicUrl'>): string =>
  hookFingerprint({
    hookUrl: (id) => callbackUrl(deps.publicUrl, id),
    updateKinds: [...VK_EVENTS, VK_API_VERSION],
    // Each channel's secret is random, kept with its credentials: none is derived from the gateway's settings.
    hookSecret: () => 'random-per-channel',
    ...(deps.previousPublicUrl ? { previousHookUrl: (id: string) => callbackUrl(deps.previousPublicUrl!, id) } : {}),
  });

/**
 * Brings a channel's server up to date (another PUBLIC_URL, say), as connecting sets it, but only where the community
 * still has a server of the gateway's for the channel: one removed by the community's admins stays removed.
 */
export function vkCallbackRegistrar(deps: VkDeps, pacer: CallPacer): HookRegistrar {
  const fingerprint = vkFingerprint(deps);
  return {
    transport: 'vk',
    fingerprint,
    async refresh(channel: OutdatedChannel, signal) {
      const community = communityOf(deps.cipher, channel.credentials);
      if (!community) return 'elsewhere';
      const api = pacedCommunity(deps, pacer, community, signal);
      const ours = oursFor(deps, channel.id);
      try {
        if (!(await serversOf(api, community.group_id)).some((s) => ours(s.url))) return 'elsewhere';
        const status = await registerCallbackServer(api, community.group_id, callbackUrl(deps.publicUrl, channel.id), community.secret, ours);
        // Not confirmed (VK could not reach the address, or it did not answer the code): the next pass tries again.
        if (status !== 'ok') throw new Error(`VK did not confirm the callback server (status ${status ?? 'unknown'})`);
        return 'registered';
      } catch (err) {
        if (!isKeyRefused(err)) throw err;
        await deps.revoked(channel.id, channel.credentials);
        return 'revoked';
      }
    },
    async withdraw(channel, signal) {
      await letGoOfCommunity(deps, pacer, channel.id, channel.credentials, signal);
    },
  };
}
