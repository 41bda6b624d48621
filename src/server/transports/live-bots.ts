import { createHmac } from 'node:crypto';
import { deriveKey } from '../core/keys.ts';
import type { Dispatcher } from 'undici';
import type { CallPacer } from './call-pacer.ts';
import { pressAnswerer } from './maxbot/bot-answers.ts';
import { connectMaxBot, disconnectMaxBot, maxBotMessaging, type MaxBotDeps } from './maxbot/bot-driver.ts';
import { maxFiles } from './maxbot/bot-files.ts';
import { maxUpdateHook } from './maxbot/bot-hook.ts';
import { maxSubscriptionRegistrar } from './maxbot/bot-subscription.ts';
import { connectTelegramBot, disconnectTelegramBot, telegramBotMessaging, type TelegramBotDeps } from './telegram/bot-driver.ts';
import { telegramFiles } from './telegram/bot-files.ts';
import { telegramUpdateHook } from './telegram/bot-hook.ts';
import { telegramWebhookRegistrar } from './telegram/bot-webhook.ts';
import type { LiveDriverOptions } from './live-options.ts';
import type { LiveTransport } from './live-transport.ts';

/** Each secret from a key of its own, derived from SECRET_KEY as the gateway's other keys are. */
export const liveKeys = (secretKey: string) => {
  const keyFor = (purpose: string) => deriveKey(secretKey, purpose);
  const secretsOf = (purpose: string) => {
    const key = keyFor(purpose);
    return (channelId: string) => createHmac('sha256', key).update(channelId).digest('base64url');
  };
  return { keyFor, secretsOf };
};

/** The bots (Telegram's and MAX's): connected by their token, their updates posted to the gateway's hooks. */
export function botTransports(options: LiveDriverOptions, filesAgent: Dispatcher, pacers: { telegram: CallPacer; maxbot: CallPacer }): { telegram: LiveTransport; maxbot: LiveTransport } {
  const { keyFor, secretsOf } = liveKeys(options.secretKey);
  const common = { publicUrl: options.publicUrl, cipher: options.cipher, revoked: options.revoked, filesAgent };
  const telegramPacer = pacers.telegram;
  const maxPacer = pacers.maxbot;
  const telegram: TelegramBotDeps = {
    ...common,
    apiUrl: options.telegramApiUrl,
    hookSecret: secretsOf('telegram-webhook-secrets/v1'),
    allowLoopbackFiles: options.allowLoopbackFiles ?? false,
  };
  const maxbot: MaxBotDeps = { ...common, apiUrl: options.maxApiUrl, hookSecret: secretsOf('maxbot-webhook-secrets/v1'), allowLoopbackFiles: options.allowLoopbackFiles ?? false };
  return {
    telegram: {
      connect: (channelId, credentials, previous) => connectTelegramBot(telegram, channelId, String(credentials.telegram_token), previous),
      disconnect: (channel) => disconnectTelegramBot(telegram, channel.credentials),
      messaging: telegramBotMessaging(telegram, telegramPacer),
      registrar: telegramWebhookRegistrar(telegram, telegramPacer, options.previousPublicUrl ?? null),
      hooks(messages) {
        const linkKey = keyFor('telegram-file-links/v1');
        const files = telegramFiles({ apiUrl: options.telegramApiUrl, publicUrl: options.publicUrl, linkKey, store: messages.store, cipher: options.cipher });
        return {
          update: telegramUpdateHook({ messages, hookSecret: telegram.hookSecret, files }),
          files: ({ channelId, fileId, signature, range }) => files.open(channelId, fileId, signature, range),
        };
      },
    },
    // MAX's addresses of pictures, sounds and files hold no token and are handed on as they are; a video's direct
    // address comes only from a call with the bot's token, so videos get links of the gateway's own.
    maxbot: {
      connect: (channelId, credentials, previous) => connectMaxBot(maxbot, channelId, String(credentials.access_token), previous),
      disconnect: (channel) => disconnectMaxBot(maxbot, channel.id, channel.credentials),
      messaging: maxBotMessaging(maxbot, maxPacer),
      registrar: maxSubscriptionRegistrar(maxbot, maxPacer, options.previousPublicUrl ?? null),
      hooks(messages) {
        const answers = pressAnswerer({
          apiUrl: options.maxApiUrl,
          cipher: options.cipher,
          channels: messages.store.channels,
          pacer: maxPacer,
          revoked: options.revoked,
          failed: (reason) => options.onAnswerFailed?.('maxbot', reason),
        });
        const linkKey = keyFor('maxbot-file-links/v1');
        const files = maxFiles({
          apiUrl: options.maxApiUrl,
          publicUrl: options.publicUrl,
          linkKey,
          store: messages.store,
          cipher: options.cipher,
          agent: filesAgent,
        });
        return {
          update: maxUpdateHook({ messages, hookSecret: maxbot.hookSecret, answers, videoLink: files.link }),
          files: ({ channelId, fileId, signature, range }) => files.open(channelId, fileId, signature, range),
        };
      },
    },
  };
}
