import { createHmac, hkdfSync } from 'node:crypto';
import type { Transport } from '../../contract/channels.ts';
import type { ConnectDriver, CredentialsCipher } from '../core/channels/ports.ts';
import { AppError, validationError } from '../core/errors.ts';
import type { MessageDeps, MessagingDriver, MessengerFileOpener, MessengerHook } from '../core/messages/ports.ts';
import { connectTelegramBot, disconnectTelegramBot, telegramBotMessaging, type TelegramBotDeps } from './telegram/bot-driver.ts';
import { telegramFiles } from './telegram/bot-files.ts';
import { telegramUpdateHook } from './telegram/bot-hook.ts';

/** The transports this version reaches on the real platforms (TRANSPORT_MODE=live). */
export const liveTransports: readonly Transport[] = ['telegram'];

export interface LiveDriverOptions {
  publicUrl: string;
  secretKey: string;
  cipher: CredentialsCipher;
  telegramApiUrl: string;
  /** A platform no longer takes a channel's credentials (`sealed`, as stored): the channel is switched off. */
  revoked(channelId: string, sealed: string | null): Promise<void>;
}

const notLive = (transport: Transport) =>
  validationError(
    [{ field: 'transport', message: `has no live driver in this version (live: ${liveTransports.join(', ')})` }],
    `${transport} channels cannot be connected on this gateway`,
  );

/** No live transport connects by QR, two-factor password or a provider's page yet: those steps are never reached. */
const noSuchStep = () => new AppError('CHANNEL_WRONG_STATUS', 'This step does not apply to the live transports of this version');

/**
 * The real platforms behind the same ports as the sandbox: connecting, messaging, and the callbacks the platforms
 * post to `/hooks/<transport>/<channel id>`. A transport without a live driver is refused when a channel of it
 * is created; one left from a sandbox run fails its sends as unavailable.
 */
export function liveDrivers(options: LiveDriverOptions): {
  connect: ConnectDriver;
  messaging: MessagingDriver;
  hooks(messages: MessageDeps): { updates: Record<string, MessengerHook>; files: Record<string, MessengerFileOpener> };
} {
  // Each secret from a key of its own, derived from SECRET_KEY as the gateway's other keys are.
  const keyFor = (purpose: string) => Buffer.from(hkdfSync('sha256', options.secretKey, 'messaging-gateway', purpose, 32));
  const hookKey = keyFor('telegram-webhook-secrets/v1');
  const hookSecret = (channelId: string) => createHmac('sha256', hookKey).update(channelId).digest('base64url');
  const telegram: TelegramBotDeps = { apiUrl: options.telegramApiUrl, publicUrl: options.publicUrl, cipher: options.cipher, hookSecret, revoked: options.revoked };
  const bot = telegramBotMessaging(telegram);
  return {
    connect: {
      connects: (transport) => liveTransports.includes(transport),
      async connect({ channelId, transport, credentials, previous }) {
        if (transport !== 'telegram') throw notLive(transport);
        return connectTelegramBot(telegram, channelId, String(credentials.telegram_token), previous);
      },
      newQrPayload: () => Promise.reject(noSuchStep()),
      renderQr: () => Promise.reject(noSuchStep()),
      checkTwoFactor: () => Promise.reject(noSuchStep()),
      authorizationUrl: () => {
        throw noSuchStep();
      },
      disconnect: (channel) => (channel.transport === 'telegram' ? disconnectTelegramBot(telegram, channel.credentials) : Promise.resolve()),
    },
    messaging: {
      send: (m) => (m.transport === 'telegram' ? bot.send(m) : Promise.resolve({ kind: 'failed', reason: 'message_channel_unavailable' })),
      edit: (ref) => (ref.transport === 'telegram' ? bot.edit(ref) : Promise.reject(notLive(ref.transport))),
      remove: (ref) => (ref.transport === 'telegram' ? bot.remove(ref) : Promise.reject(notLive(ref.transport))),
    },
    hooks(messages) {
      const linkKey = keyFor('telegram-file-links/v1');
      const files = telegramFiles({ apiUrl: options.telegramApiUrl, publicUrl: options.publicUrl, linkKey, store: messages.store, cipher: options.cipher });
      return {
        updates: { telegram: telegramUpdateHook({ messages, hookSecret, files }) },
        files: { telegram: ({ channelId, fileId, signature }) => files.open(channelId, fileId, signature) },
      };
    },
  };
}
