import type { CallPacer } from '../call-pacer.ts';
import type { LiveTransport } from '../live-transport.ts';
import { letGoOfCommunity, vkCallbackRegistrar } from './vk-callback-server.ts';
import type { VkDeps } from './vk-community.ts';
import { connectVk, vkAuthorizationReturn, type PendingServers } from './vk-connect.ts';
import { vkUpdateHook } from './vk-hook.ts';
import { vkMessaging } from './vk-messaging.ts';

/**
 * VK communities through VK's API: a channel connects through VK's OAuth pages (its `url`, which sends the owner back
 * to `/hooks/vk/authorized`, twice: once to choose the community, once with its key), and VK's Callback API posts
 * each channel's events to `/hooks/vk/<channel id>`. Each community's calls are paced.
 */
export function vkTransport(deps: VkDeps, pacer: CallPacer): LiveTransport {
  const registrar = vkCallbackRegistrar(deps, pacer);
  const pending: PendingServers = new Map();
  return {
    // A reconnect forgets the community's key (the channel waits with none): the community it had lets the gateway's
    // server go once that is committed (best effort), since nothing could remove it later. The community chosen next
    // gets one anew.
    async connect(channelId, _credentials, previous) {
      const before = previous?.credentials ?? null;
      return { ...connectVk(deps, channelId), ...(before ? { letGo: () => letGoOfCommunity(deps, pacer, channelId, before, AbortSignal.timeout(10_000)) } : {}) };
    },
    disconnect: (channel) => letGoOfCommunity(deps, pacer, channel.id, channel.credentials, AbortSignal.timeout(25_000)),
    messaging: vkMessaging(deps, pacer),
    registrar,
    authorization: vkAuthorizationReturn(deps, pacer, pending, registrar.fingerprint),
    hooks: (messages) => ({ update: vkUpdateHook({ ...deps, messages, pending, pacer }) }),
  };
}
