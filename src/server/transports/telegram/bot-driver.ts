import type { FailureReason } from '../../../contract/messages.ts';
import type { CredentialsCipher } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import { TransientSendError, type MessagingDriver, type OutboundMessage, type SendOutcome, type SentMessageRef } from '../../core/messages/ports.ts';
import { BotApiError, BotApiUnreachable, botApi, type BotApi, type BotMessage, type BotUser } from './bot-api.ts';
import { replyMarkup } from './bot-keyboard.ts';
import { botPacer } from './bot-pacer.ts';

export interface TelegramBotDeps {
  /** The Bot API's base URL (https://api.telegram.org, or an emulator's). */
  apiUrl: string;
  /** Where Telegram posts a channel's updates: `<publicUrl>/hooks/telegram/<channel id>`. */
  publicUrl: string;
  cipher: CredentialsCipher;
  /** The secret Telegram sends back with every update of a channel (`X-Telegram-Bot-Api-Secret-Token`). */
  hookSecret(channelId: string): string;
  /**
   * Telegram no longer takes the channel's token: the channel is switched off until it is reconnected, unless its
   * credentials changed since (`sealed` is the refused one: a reinit may have raced the refused call).
   */
  revoked?(channelId: string, sealed: string | null): Promise<void>;
  timeoutMs?: number;
}

/** The updates a channel asks for: messages only (edits, reactions and button presses are not read yet). */
const ALLOWED_UPDATES = ['message'];

const unreachable = () => new AppError('SERVICE_UNAVAILABLE', 'Telegram could not be reached; try again');

/** Telegram fetches a file given by URL itself, which takes a while; still under the send's 30 s lease. */
const FILE_TIMEOUT_MS = 25_000;

/** Telegram's number of a message: a caption recorded on its own (`<id>:caption`) is the same message there. */
export const telegramMessageId = (messengerMessageId: string): number => Number.parseInt(messengerMessageId, 10);

/** A bot token as @BotFather gives it; anything else would not be a path segment of the API's URL. */
const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,}$/;

/** A bot token, from the credentials as the channel stores them (sealed). */
function tokenOf(deps: TelegramBotDeps, sealed: string | null): string {
  const token = sealed ? deps.cipher.open(sealed).telegram_token : undefined;
  if (typeof token !== 'string') throw new AppError('CHANNEL_WRONG_STATUS', 'The channel has no bot token; reconnect it');
  return token;
}

/**
 * Connecting a bot: Telegram says whose token it is (`getMe`), then is told where to post the bot's updates
 * (`setWebhook`, with the channel's secret). A token Telegram does not know is refused by its field.
 */
export async function connectTelegramBot(
  deps: TelegramBotDeps,
  channelId: string,
  token: string,
  previous?: { messengerId: string | null; credentials: string | null },
): Promise<{ kind: 'ready'; profile: { messengerId: string; username: string | null; name: string } } | { kind: 'refused'; field: string; message: string }> {
  if (!BOT_TOKEN.test(token)) return { kind: 'refused', field: 'telegram_token', message: 'is not a bot token of the form <digits>:<letters, digits, _ and ->' };
  const api = botApi(deps.apiUrl, token, deps.timeoutMs);
  let me: BotUser;
  try {
    me = await api.call<BotUser>('getMe');
  } catch (err) {
    if (err instanceof BotApiError && (err.errorCode === 401 || err.errorCode === 404)) {
      return { kind: 'refused', field: 'telegram_token', message: 'was not accepted by Telegram' };
    }
    throw err instanceof BotApiUnreachable ? unreachable() : new AppError('SERVICE_UNAVAILABLE', `Telegram refused getMe: ${(err as Error).message}`);
  }
  try {
    await api.call('setWebhook', { url: `${deps.publicUrl}/hooks/telegram/${channelId}`, secret_token: deps.hookSecret(channelId), allowed_updates: ALLOWED_UPDATES });
  } catch (err) {
    // Most often PUBLIC_URL: Telegram posts only to https on ports 443, 80, 88 or 8443.
    throw err instanceof BotApiUnreachable ? unreachable() : new AppError('SERVICE_UNAVAILABLE', `Telegram did not take the webhook address: ${(err as Error).message}`);
  }
  // Another bot in the channel's place: the one before stops posting here (its updates would pass the channel's secret).
  if (previous?.messengerId && previous.messengerId !== String(me.id) && previous.credentials) {
    await disconnectTelegramBot(deps, previous.credentials).catch(() => {});
  }
  const name = [me.first_name, me.last_name].filter(Boolean).join(' ');
  return { kind: 'ready', profile: { messengerId: String(me.id), username: me.username ?? null, name } };
}

/** A deleted channel's bot stops posting here (its pending updates are dropped with the webhook). */
export async function disconnectTelegramBot(deps: TelegramBotDeps, sealed: string | null): Promise<void> {
  await botApi(deps.apiUrl, tokenOf(deps, sealed), deps.timeoutMs).call('deleteWebhook', { drop_pending_updates: true });
}

/** A refused send, as the interface's failure reasons name it; null where the send may work later. */
export function failureOf(err: BotApiError): FailureReason | null {
  const said = err.message.toLowerCase();
  if (err.errorCode === 429 || err.errorCode >= 500) return null;
  if (err.errorCode === 401) return 'session_revoked';
  // Not the token (Telegram says 401 for that): an API address that answers for something else.
  if (err.errorCode === 404) return 'unknown_error';
  if (err.errorCode === 403) {
    if (said.includes("can't initiate")) return 'messages_not_text_first_from_telegram_bot';
    if (said.includes('deactivated')) return 'input_user_deactivated';
    if (said.includes('kicked') || said.includes('not a member')) return 'channel_private';
    return 'chat_is_blocked';
  }
  if (said.includes('chat not found')) return 'bad_contact';
  if (said.includes('message is too long') || said.includes('caption is too long')) return 'text_length_is_too_much';
  if (said.includes('message text is empty')) return 'message_empty';
  if (said.includes('http url') || said.includes('wrong file')) return 'can_not_get_content';
  if (err.errorCode === 400) return 'bad_required_parameter';
  return 'unknown_error';
}

/** The Bot API method for a file, by its type: Telegram fetches photos, videos and audio by URL as their kind. */
function fileMethod(mimetype: string | undefined): { method: string; field: string } {
  if (mimetype && /^image\/(jpeg|png|webp)$/.test(mimetype)) return { method: 'sendPhoto', field: 'photo' };
  if (mimetype === 'video/mp4') return { method: 'sendVideo', field: 'video' };
  if (mimetype === 'audio/mpeg' || mimetype === 'audio/mp4') return { method: 'sendAudio', field: 'audio' };
  return { method: 'sendDocument', field: 'document' };
}

function sendRequest(m: OutboundMessage): { method: string; params: Record<string, unknown> } {
  const markup = replyMarkup(m.keyboard);
  const common = {
    chat_id: m.chatId,
    ...(m.quotedMessengerId ? { reply_parameters: { message_id: telegramMessageId(m.quotedMessengerId), allow_sending_without_reply: true } } : {}),
    ...(markup ? { reply_markup: markup } : {}),
  };
  if (m.attachment) {
    const { method, field } = fileMethod(m.attachment.mimetype);
    return { method, params: { ...common, [field]: m.attachment.url, ...(m.text ? { caption: m.text } : {}) } };
  }
  return { method: 'sendMessage', params: { ...common, text: m.text ?? '' } };
}

/** What a refused edit or delete tells the caller. */
function changeRefused(err: unknown, what: 'edited' | 'deleted'): AppError {
  if (err instanceof BotApiUnreachable || (err instanceof BotApiError && failureOf(err) === null)) return unreachable();
  if (err instanceof BotApiError && err.errorCode === 401) return new AppError('CHANNEL_WRONG_STATUS', 'Telegram no longer takes the channel’s bot token; reconnect it');
  const said = err instanceof Error ? err.message : String(err);
  if (/not found/i.test(said)) return new AppError('MESSAGE_NOT_FOUND', `Telegram no longer has this message (${said})`);
  if (/there is no (media|text)/i.test(said)) return new AppError('CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING', `Telegram cannot change this message so (${said})`);
  if (/can't be/i.test(said)) return new AppError('MESSAGES_EDITING_TIME_EXPIRED', `Telegram no longer lets this message be ${what} (${said})`);
  return new AppError('SERVICE_UNAVAILABLE', `Telegram refused: ${said}`);
}

const isUnchanged = (err: unknown) => err instanceof BotApiError && /message is not modified/i.test(err.message);

/**
 * Messaging through a bot. The Bot API takes no idempotency key: a send whose answer is lost (a crash between
 * Telegram's answer and its record) is sent again on retry, so a customer may get such a message twice.
 * Bots cannot write first, so a chat known only by username or phone fails as the platform would.
 */
export function telegramBotMessaging(deps: TelegramBotDeps, pacer = botPacer()): MessagingDriver {
  /**
   * The channel's bot, its calls paced to Telegram's limits: per bot, and for sends into a group (`groupChatId`)
   * per group too. Edits and deletes, which come from requests in any number, are not held behind a group's pace.
   */
  const apiFor = (sealed: string | null, groupChatId: string | null, timeoutMs = deps.timeoutMs): BotApi => {
    const token = tokenOf(deps, sealed);
    const api = botApi(deps.apiUrl, token, timeoutMs);
    return { call: (method, params) => pacer.pace(token.split(':')[0]!, groupChatId, () => api.call(method, params)) };
  };
  /** A refused token switches the channel off, whichever call learned it. */
  const noteRevoked = async (err: unknown, channelId: string, sealed: string | null) => {
    if (err instanceof BotApiError && err.errorCode === 401) await deps.revoked?.(channelId, sealed);
  };
  const chatOf = (ref: SentMessageRef) => {
    if (!ref.chatId) throw new AppError('MESSAGE_NOT_FOUND', 'The message has no chat in Telegram');
    return ref.chatId;
  };
  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null) return { kind: 'failed', reason: 'messages_not_text_first_from_telegram_bot' };
      const { method, params } = sendRequest(m);
      try {
        const sent = await apiFor(m.sealedCredentials, m.chatId, m.attachment ? FILE_TIMEOUT_MS : deps.timeoutMs).call<BotMessage>(method, params);
        return { kind: 'sent', messengerMessageId: String(sent.message_id), chatId: String(sent.chat.id), delivered: false };
      } catch (err) {
        if (err instanceof BotApiUnreachable) throw new TransientSendError(err.message);
        if (!(err instanceof BotApiError)) throw err;
        const reason = failureOf(err);
        if (reason === null) throw new TransientSendError(`Telegram answered ${err.errorCode}: ${err.message}`, err.retryAfter === null ? null : err.retryAfter * 1000);
        await noteRevoked(err, m.channelId, m.sealedCredentials);
        return { kind: 'failed', reason };
      }
    },

    async edit(ref) {
      const api = apiFor(ref.sealedCredentials, null, ref.attachment ? FILE_TIMEOUT_MS : deps.timeoutMs);
      const markup = replyMarkup(ref.keyboard);
      // An edit that leaves out the inline keyboard removes it: it is given again.
      const target = { chat_id: chatOf(ref), message_id: telegramMessageId(ref.messengerMessageId), ...(markup?.inline_keyboard ? { reply_markup: markup } : {}) };
      try {
        if (ref.attachment) {
          const { field } = fileMethod(ref.attachment.mimetype);
          await api.call('editMessageMedia', { ...target, media: { type: field, media: ref.attachment.url, ...(ref.text ? { caption: ref.text } : {}) } });
          return;
        }
        try {
          await api.call('editMessageText', { ...target, text: ref.text ?? '' });
        } catch (err) {
          // A file's words are its caption.
          if (!(err instanceof BotApiError && /there is no text in the message/i.test(err.message))) throw err;
          await api.call('editMessageCaption', { ...target, caption: ref.text ?? '' });
        }
      } catch (err) {
        if (isUnchanged(err)) return;
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        throw changeRefused(err, 'edited');
      }
    },

    async remove(ref) {
      try {
        await apiFor(ref.sealedCredentials, null).call('deleteMessage', { chat_id: chatOf(ref), message_id: telegramMessageId(ref.messengerMessageId) });
      } catch (err) {
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        throw changeRefused(err, 'deleted');
      }
    },
  };
}
