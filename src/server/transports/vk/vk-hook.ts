import { LRUCache } from 'lru-cache';
import { platformReports } from '../../core/messages/platform-reports.ts';
import type { MessageDeps, MessengerHook } from '../../core/messages/ports.ts';
import { sameSecret } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import type { PendingServers } from './vk-connect.ts';
import { communityOf, pacedCommunity, type CommunityCredentials, type VkDeps } from './vk-community.ts';
import { eventOf } from './vk-events.ts';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Users' names looked up, by user id: a name changes seldom, and every message of a dialog would ask again. */
const NAMES_KEPT = 10_000;
const NAME_TTL_MS = 60 * 60_000;

/**
 * VK's callbacks for a channel, at `/hooks/vk/<channel id>` (the address its Callback API server was registered
 * with). VK signs nothing: each post carries the server's secret key (`secret`), compared in constant time with the
 * channel's before anything is read or written; a channel that does not exist, is not VK's, or holds no key answers
 * as a wrong secret does. `confirmation` is answered with the community's code as plain text; any other event, once
 * recorded (or not wanted), with `ok`, which VK takes as delivered; anything else (a 503 while the channel is
 * between states, or while an echo must wait for a send under way) VK posts again later (documented: up to 5 times),
 * and a message it posts again is found by its number, not recorded twice.
 */
export function vkUpdateHook(deps: VkDeps & { messages: MessageDeps; pending: PendingServers; pacer: CallPacer }): MessengerHook {
  const names = new LRUCache<string, { name: string | null }>({ max: NAMES_KEPT, ttl: NAME_TTL_MS });

  /** The user's name (`users.get`), cached; null where VK does not say (the message is recorded without it). */
  async function nameOf(community: CommunityCredentials, userId: string): Promise<string | null> {
    const kept = names.get(userId);
    if (kept) return kept.name;
    try {
      const users = await pacedCommunity(deps, deps.pacer, community, AbortSignal.timeout(5000)).call<unknown>('users.get', { user_ids: userId });
      const user = Array.isArray(users) ? users.find((u) => isObject(u) && String(u.id) === userId) : undefined;
      const name = isObject(user) ? [user.first_name, user.last_name].filter((p) => typeof p === 'string' && p).join(' ') || null : null;
      names.set(userId, { name });
      return name;
    } catch {
      return null;
    }
  }

  return async (callback) => {
    const body = isObject(callback.body) ? callback.body : {};
    const channel = await deps.channels.getById(callback.channelId);
    if (!channel || channel.transport !== 'vk') return 'unauthorized';
    // While a connect registers the server, VK's confirmation (and nothing else) may come before the channel holds it.
    const pending = deps.pending.get(channel.id);
    const stored = communityOf(deps.cipher, channel.credentials);
    const keyOf = [pending, stored].find((k) => k !== undefined && k !== null && sameSecret(body.secret, k.secret));
    if (!keyOf) return 'unauthorized';
    if (stored && keyOf === stored && String(body.group_id) !== stored.group_id) return 'unauthorized';
    const event = eventOf(body);
    if (event.kind === 'confirmation') {
      callback.respondText?.(keyOf.confirmation);
      return 'accepted';
    }
    if (event.kind === 'none' || event.reports.length === 0) {
      callback.respondText?.('ok');
      return 'ignored';
    }
    // A message for a channel still being connected: VK posts it again once the channel holds its key.
    if (!stored) return 'unavailable';
    if (event.customer !== null) {
      const name = await nameOf(stored, event.customer);
      if (name !== null) for (const report of event.reports) if (report.kind === 'message') report.message.name = name;
    }
    const outcome = await platformReports(deps.messages, channel.id, event.reports);
    if (outcome === 'not_yet') return 'unavailable';
    callback.respondText?.('ok');
    return outcome === 'recorded' ? 'accepted' : 'ignored';
  };
}
