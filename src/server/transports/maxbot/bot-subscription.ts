import type { HookRegistrar, OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import type { CallPacer } from '../call-pacer.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import type { MaxApi } from './bot-api.ts';
import { hookUrl, otherHooks, pacedMax, subscribedUrls, subscriptionBody, UPDATE_TYPES, type MaxBotDeps } from './bot-driver.ts';
import { isTokenRefused } from './bot-failures.ts';

/**
 * Subscribes channels subscribed under other settings again, as connecting subscribed them, but only where the bot is
 * subscribed to this gateway's hook for the channel: at PUBLIC_URL, or at `previousPublicUrl` (PREVIOUS_PUBLIC_URL)
 * while the bots move from it. One whose subscription is gone (a reconnect with another bot, or MAX itself, removed
 * it) or is at any other address is left as it is: another deployment with the same channels (a copy restored from
 * this one's database) may have put it there. As connecting does, the bot's other subscriptions to this gateway's
 * hooks are removed; and so is the channel's own under PREVIOUS_PUBLIC_URL, which MAX would otherwise go on posting to
 * besides the new one (and unsubscribe the bot once it keeps failing). Subscriptions at other hosts are never touched.
 */
export function maxSubscriptionRegistrar(deps: MaxBotDeps, pacer: CallPacer, previousPublicUrl: string | null = null): HookRegistrar {
  const previousHookUrl = previousPublicUrl === null ? undefined : (channelId: string) => hookUrl({ publicUrl: previousPublicUrl }, channelId);
  const fingerprint = hookFingerprint({
    hookUrl: (id) => hookUrl(deps, id),
    updateKinds: UPDATE_TYPES,
    hookSecret: deps.hookSecret,
    ...(previousHookUrl ? { previousHookUrl } : {}),
  });
  /** The channel's bot, each call in the bot's pace (with its sends); a call still waiting when `signal` aborts is not made. */
  const botOf = (channel: OutdatedChannel, signal: AbortSignal): MaxApi => pacedMax(deps, pacer, channel.credentials, null, signal);
  return {
    transport: 'maxbot',
    fingerprint,
    async refresh(channel, signal) {
      const mine = hookUrl(deps, channel.id);
      const before = previousHookUrl?.(channel.id);
      let api: MaxApi;
      let found: string[];
      try {
        api = botOf(channel, signal);
        found = await subscribedUrls(api);
        if (!found.some((url) => url === mine || url === before)) return 'elsewhere';
        await api.call('POST', '/subscriptions', { body: subscriptionBody(deps, channel.id) });
      } catch (err) {
        if (!isTokenRefused(err)) throw err;
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
      const stale = [...otherHooks(deps, channel.id, found), ...found.filter((url) => url === before)];
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
