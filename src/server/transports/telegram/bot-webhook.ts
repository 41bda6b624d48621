import type { HookRegistrar, OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import { hookUrl } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import type { TelegramBotDeps } from './bot-driver.ts';
import { isTokenRefused, pacedBot } from './paced-bot.ts';

/**
 * The updates a channel asks for: messages, customers' edits of them, presses of inline buttons, and reactions.
 * Telegram keeps what a webhook was set with: channels set before a change here are set again by the hook refresh.
 */
const ALLOWED_UPDATES: readonly string[] = ['message', 'edited_message', 'callback_query', 'message_reaction'];

/** Where Telegram posts a channel's updates. */
const telegramHookUrl = (deps: Pick<TelegramBotDeps, 'publicUrl'>, channelId: string): string => hookUrl(deps.publicUrl, 'telegram', channelId);

/** What `setWebhook` is given for a channel, by connecting and by the hook refresh alike. */
export const webhookParams = (deps: TelegramBotDeps, channelId: string) => ({
  url: telegramHookUrl(deps, channelId),
  secret_token: deps.hookSecret(channelId),
  allowed_updates: ALLOWED_UPDATES,
});

/** What `getWebhookInfo` tells of the bot's webhook: its address, empty when it has none. */
interface WebhookInfo {
  url?: string;
}

/**
 * Sets the webhooks of channels registered under other settings again, as connecting set them, but only where the
 * bot posts to this gateway's hook for the channel: at PUBLIC_URL, or at `previousPublicUrl` (PREVIOUS_PUBLIC_URL)
 * while the bots move from it. A bot whose webhook is gone (a reconnect with another bot removed it) or points at any
 * other address is left as it is: another channel, its owner's own server, or another deployment with the same
 * channels (a copy restored from this one's database) may have put it there. Pending updates are kept.
 */
export function telegramWebhookRegistrar(deps: TelegramBotDeps, pacer: CallPacer, previousPublicUrl: string | null = null): HookRegistrar {
  const previousHookUrl = previousPublicUrl === null ? undefined : (channelId: string) => telegramHookUrl({ publicUrl: previousPublicUrl }, channelId);
  const fingerprint = hookFingerprint({
    hookUrl: (id) => telegramHookUrl(deps, id),
    updateKinds: ALLOWED_UPDATES,
    hookSecret: deps.hookSecret,
    ...(previousHookUrl ? { previousHookUrl } : {}),
  });
  /** Whether the webhook is this gateway's for the channel, now or under PREVIOUS_PUBLIC_URL. */
  const postsHere = (info: WebhookInfo | undefined, channelId: string) =>
    typeof info?.url === 'string' && (info.url === telegramHookUrl(deps, channelId) || info.url === previousHookUrl?.(channelId));
  /** The channel's bot, each call in the bot's pace (with its sends); a call still waiting when `signal` aborts is not made. */
  const botOf = (channel: OutdatedChannel, signal: AbortSignal) => pacedBot(deps, pacer, channel.credentials, null, deps.timeoutMs, signal);
  return {
    transport: 'telegram',
    fingerprint,
    async refresh(channel, signal) {
      try {
        const bot = botOf(channel, signal);
        if (!postsHere(await bot.call<WebhookInfo>('getWebhookInfo'), channel.id)) return 'elsewhere';
        await bot.call('setWebhook', webhookParams(deps, channel.id));
        return 'registered';
      } catch (err) {
        if (!isTokenRefused(err)) throw err;
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
    },
    async withdraw(channel, signal) {
      const bot = botOf(channel, signal);
      // Only a webhook still at the channel's hook: the bot may have been connected to another channel since.
      const info = await bot.call<WebhookInfo>('getWebhookInfo');
      if (info?.url === telegramHookUrl(deps, channel.id)) await bot.call('deleteWebhook', { drop_pending_updates: true });
    },
  };
}
