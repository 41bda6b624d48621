import type { HookRegistrar, OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import { DeadlinePassed, tokenFrom, untilDeadline } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import { botKeyOf, maxApi, type MaxApi } from './bot-api.ts';
import { hookUrl, otherHooks, subscribedUrls, subscriptionBody, UPDATE_TYPES, type MaxBotDeps } from './bot-driver.ts';
import { isTokenRefused } from './bot-failures.ts';

/** Whether a subscription is the channel's hook, at this address or under an earlier PUBLIC_URL (channel ids are unique). */
const isChannelHook = (url: string, channelId: string) => url.endsWith(`/hooks/maxbot/${channelId}`);

/**
 * Subscribes channels subscribed under other settings again, as connecting subscribed them, but only where the bot
 * still has a subscription to the channel's hook: one whose subscription is gone (a reconnect with another bot, or
 * MAX itself, removed it) is left as it is. As connecting does, the bot's other subscriptions to this gateway's hooks
 * are removed; and so is the channel's own at an earlier PUBLIC_URL, which MAX would otherwise go on posting to
 * besides the new one (and unsubscribe the bot once it keeps failing).
 */
export function maxSubscriptionRegistrar(deps: MaxBotDeps, pacer: CallPacer): HookRegistrar {
  const fingerprint = hookFingerprint({ hookUrl: (id) => hookUrl(deps, id), updateKinds: UPDATE_TYPES, hookSecret: deps.hookSecret });
  /**
   * The channel's bot, each call in the bot's pace (with its sends and answers). A call still waiting for its turn
   * when `signal` aborts is not made, and one under way is ended.
   */
  const botOf = (channel: OutdatedChannel, signal: AbortSignal): MaxApi => {
    const token = tokenFrom(deps.cipher, channel.credentials, 'access_token');
    if (token === null) throw new Error('the channel has no bot token');
    const api = maxApi(deps.apiUrl, token, deps.timeoutMs);
    return {
      call: (method, path, options = {}) =>
        untilDeadline(
          pacer.pace(botKeyOf(token), null, () => {
            if (signal.aborted) throw new DeadlinePassed();
            return api.call(method, path, { ...options, signal });
          }),
          signal,
        ),
    };
  };
  return {
    transport: 'maxbot',
    fingerprint,
    async refresh(channel, signal) {
      const api = botOf(channel, signal);
      let found: string[];
      try {
        found = await subscribedUrls(api);
        if (!found.some((url) => isChannelHook(url, channel.id))) return 'elsewhere';
        await api.call('POST', '/subscriptions', { body: subscriptionBody(deps, channel.id) });
      } catch (err) {
        if (!isTokenRefused(err)) throw err;
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
      const mine = hookUrl(deps, channel.id);
      const stale = [...otherHooks(deps, channel.id, found), ...found.filter((url) => isChannelHook(url, channel.id) && url !== mine)];
      // Best effort, as connecting: a subscription left now is found again by the next reconnect.
      for (const url of new Set(stale)) await api.call('DELETE', '/subscriptions', { query: { url } }).catch(() => {});
      return 'registered';
    },
    async withdraw(channel, signal) {
      // Only the channel's own subscription goes: the bot may have been connected to another channel since.
      await botOf(channel, signal).call('DELETE', '/subscriptions', { query: { url: hookUrl(deps, channel.id) } });
    },
  };
}
