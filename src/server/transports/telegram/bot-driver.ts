import type { Dispatcher } from 'undici';
import type { Attachment, FailureReason } from '../../../contract/messages.ts';
import type { LetGo } from '../../core/channels/ports.ts';
import { reactionParams } from './bot-reactions.ts';
import { AppError, validationError } from '../../core/errors.ts';
import { isMovedMessengerId, TransientSendError, type MessagingDriver, type OutboundMessage, type SendOutcome, type SentMessageRef } from '../../core/messages/ports.ts';
import { DeadlinePassed, type LiveBotDeps } from '../bot-common.ts';
import { FileTooLarge, SourceRefused, TransferFailed, sourceAgent } from '../file-source.ts';
import { BotApiError, BotApiUnreachable, botApi, type BotApi, type BotMessage, type BotUser } from './bot-api.ts';
import { uploadFile, type FileCall, type UploadLimits, type UploadOptions } from './bot-files.ts';
import { replyMarkup } from './bot-keyboard.ts';
import { botPacer } from './bot-pacer.ts';
import { webhookParams } from './bot-webhook.ts';
import { isTokenRefused, pacedBot, tokenOf } from './paced-bot.ts';
import { credentialRefusals } from '../../../contract/credential-fields.ts';

/** Telegram's driver: the shared deps (the Bot API at https://api.telegram.org; the secret comes back as `X-Telegram-Bot-Api-Secret-Token`). */
export interface TelegramBotDeps extends LiveBotDeps {
  /** The largest files uploaded (UPLOAD_LIMITS unless a test says). */
  uploadLimits?: UploadLimits;
}

const unreachable = () => new AppError('SERVICE_UNAVAILABLE', 'Telegram could not be reached; try again');

/**
 * A send or edit with a file ends within this: the fetch of the file from the CRM, the wait for the pacer and the
 * upload to Telegram. It stays under the send's 30 s lease, past which the send would be claimed again and the
 * customer could get it twice.
 */
const SEND_BUDGET_MS = 25_000;
/** Each wait on the file's server during its fetch: its headers, and each next part of its body. */
const TRANSFER_TIMEOUT_MS = 12_500;

/**
 * Telegram's number of a message in its chat as the chat is now: a caption recorded on its own (`<id>:caption`)
 * is the same message there. Null for none: a message of the group that became the chat's supergroup
 * (`<group id>/<number>`: the supergroup numbers its own messages from 1), or a button press (`cb:<query id>`).
 */
export function telegramMessageId(messengerMessageId: string): number | null {
  if (isMovedMessengerId(messengerMessageId)) return null;
  const number = Number.parseInt(messengerMessageId, 10);
  return Number.isSafeInteger(number) ? number : null;
}

/** The number of a message to change, or why it cannot be: it stayed in the group the supergroup was. */
function changedMessageId(messengerMessageId: string, what: 'edited' | 'deleted'): number {
  const number = telegramMessageId(messengerMessageId);
  if (number === null) {
    throw new AppError('MESSAGES_EDITING_TIME_EXPIRED', `Telegram no longer lets this message be ${what}: it was written in the group before the group became a supergroup`);
  }
  return number;
}

/** A bot token as @BotFather gives it; anything else would not be a path segment of the API's URL. */
const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,}$/;

/**
 * Connecting a bot: Telegram says whose token it is (`getMe`), then is told where to post the bot's updates
 * (`setWebhook`, with the channel's secret). A token Telegram does not know is refused by its field.
 */
export async function connectTelegramBot(
  deps: TelegramBotDeps,
  channelId: string,
  token: string,
  previous?: { messengerId: string | null; credentials: string | null },
): Promise<{ kind: 'ready'; profile: { messengerId: string; username: string | null; name: string }; letGo?: LetGo } | { kind: 'refused'; field: string; message: string }> {
  if (!BOT_TOKEN.test(token)) return { kind: 'refused', field: 'telegram_token', message: credentialRefusals.notTelegramBotToken };
  const api = botApi(deps.apiUrl, token, deps.timeoutMs);
  let me: BotUser;
  try {
    me = await api.call<BotUser>('getMe');
  } catch (err) {
    if (err instanceof BotApiError && (err.errorCode === 401 || err.errorCode === 404)) {
      return { kind: 'refused', field: 'telegram_token', message: credentialRefusals.notAcceptedByTelegram };
    }
    throw err instanceof BotApiUnreachable ? unreachable() : new AppError('SERVICE_UNAVAILABLE', `Telegram refused getMe: ${(err as Error).message}`);
  }
  try {
    await api.call('setWebhook', webhookParams(deps, channelId));
  } catch (err) {
    // Most often PUBLIC_URL: Telegram posts only to https on ports 443, 80, 88 or 8443.
    throw err instanceof BotApiUnreachable ? unreachable() : new AppError('SERVICE_UNAVAILABLE', `Telegram did not take the webhook address: ${(err as Error).message}`);
  }
  // Another bot in the channel's place: the one before stops posting here (its updates would pass the channel's secret).
  const before = previous?.messengerId && previous.messengerId !== String(me.id) ? previous.credentials : null;
  const name = [me.first_name, me.last_name].filter(Boolean).join(' ');
  return { kind: 'ready', profile: { messengerId: String(me.id), username: me.username ?? null, name }, ...(before ? { letGo: () => disconnectTelegramBot(deps, before) } : {}) };
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
  // Over Telegram's limit for uploads, refused by its web server before the API reads it.
  if (err.errorCode === 413) return 'bad_content';
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
  if (said.includes('too big') || isPhotoRefused(err)) return 'bad_content';
  if (err.errorCode === 400) return 'bad_required_parameter';
  return 'unknown_error';
}

/**
 * Telegram would not take the picture as a photo (too many pixels, too long a side, a format it could not read):
 * it may go as a document.
 */
function isPhotoRefused(err: unknown): boolean {
  return err instanceof BotApiError && err.errorCode === 400 && /photo_invalid_dimensions|image_process_failed|photo_save_file_invalid/i.test(err.message);
}

const sendMethods = { photo: 'sendPhoto', video: 'sendVideo', audio: 'sendAudio', voice: 'sendVoice', document: 'sendDocument' } as const;

/** What every send gives besides its content: the chat, the quote as `reply_parameters`, the keyboard as `reply_markup`. */
function sendParams(m: OutboundMessage): Record<string, unknown> {
  const markup = replyMarkup(m.keyboard);
  // A quote of a message that is no message of this chat in Telegram (one of the group before it became this
  // supergroup, or a button press) goes without it: its number would name another message, or none.
  const quoted = m.quotedMessengerId ? telegramMessageId(m.quotedMessengerId) : null;
  return {
    chat_id: m.chatId,
    ...(quoted !== null ? { reply_parameters: { message_id: quoted, allow_sending_without_reply: true } } : {}),
    ...(markup ? { reply_markup: markup } : {}),
  };
}

/** A send of a file: the method of its kind, the file in the field of that name, the words as its caption. */
const sendFileCall =
  (m: OutboundMessage): FileCall =>
  (kind) => ({ method: sendMethods[kind], field: kind, params: { ...sendParams(m), ...(m.text ? { caption: m.text } : {}) } });

/**
 * An edit that replaces the file: `editMessageMedia`, whose media names the uploaded file (`attach://file`). It has
 * no voice notes: one goes as a sound.
 */
const editFileCall =
  (target: Record<string, unknown>, text: string | null): FileCall =>
  (kind) => ({ method: 'editMessageMedia', field: 'file', params: { ...target, media: { type: kind === 'voice' ? 'audio' : kind, media: 'attach://file', ...(text ? { caption: text } : {}) } } });

/** What a refused edit or delete tells the caller. */
function changeRefused(err: unknown, what: 'edited' | 'deleted' | 'reacted to'): AppError {
  if (err instanceof BotApiUnreachable || (err instanceof BotApiError && failureOf(err) === null)) return unreachable();
  if (isTokenRefused(err)) return new AppError('CHANNEL_WRONG_STATUS', 'Telegram no longer takes the channel’s bot token; reconnect it');
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
  const agent: Dispatcher = deps.filesAgent ?? sourceAgent(deps.allowLoopbackFiles ?? false);
  const budgetMs = deps.sendBudgetMs ?? SEND_BUDGET_MS;
  /** The channel's bot, paced; with a deadline (`signal`) its calls wait no longer than the send's budget. */
  const apiFor = (sealed: string | null, groupChatId: string | null, signal?: AbortSignal): BotApi =>
    pacedBot(deps, pacer, sealed, groupChatId, signal ? budgetMs : deps.timeoutMs, signal);
  const transfer = (signal: AbortSignal, asDocument = false): UploadOptions => ({
    agent,
    allowLoopback: deps.allowLoopbackFiles ?? false,
    timeoutMs: Math.min(TRANSFER_TIMEOUT_MS, budgetMs),
    signal,
    asDocument,
    ...(deps.uploadLimits ? { limits: deps.uploadLimits } : {}),
  });
  /** Uploads a file with the call `call` makes; a picture Telegram refuses as a photo goes again as a document. */
  const uploadWith = async (api: BotApi, file: Attachment, call: FileCall, signal: AbortSignal): Promise<BotMessage> => {
    try {
      return await uploadFile<BotMessage>(api, file, call, transfer(signal));
    } catch (err) {
      if (!isPhotoRefused(err)) throw err;
      return uploadFile<BotMessage>(api, file, call, transfer(signal, true));
    }
  };
  /** A refused token switches the channel off, whichever call learned it. */
  const noteRevoked = async (err: unknown, channelId: string, sealed: string | null) => {
    if (isTokenRefused(err)) await deps.revoked?.(channelId, sealed);
  };
  const chatOf = (ref: SentMessageRef) => {
    if (!ref.chatId) throw new AppError('MESSAGE_NOT_FOUND', 'The message has no chat in Telegram');
    return ref.chatId;
  };
  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null) return { kind: 'failed', reason: 'messages_not_text_first_from_telegram_bot' };
      // A file is fetched from the CRM and uploaded: one deadline for all of it, from here.
      const deadline = m.attachment ? AbortSignal.timeout(budgetMs) : undefined;
      const sendTo = async (chatId: string): Promise<Extract<SendOutcome, { kind: 'sent' }>> => {
        const to = { ...m, chatId };
        const api = apiFor(m.sealedCredentials, chatId, deadline);
        const sent = m.attachment && deadline ? await uploadWith(api, m.attachment, sendFileCall(to), deadline) : await api.call<BotMessage>('sendMessage', { ...sendParams(to), text: m.text ?? '' });
        return { kind: 'sent', messengerMessageId: String(sent.message_id), chatId: String(sent.chat.id), delivered: false };
      };
      try {
        try {
          return await sendTo(m.chatId);
        } catch (err) {
          // The group became a supergroup: the message goes there, and the chat follows it.
          if (!(err instanceof BotApiError && err.migrateToChatId !== null)) throw err;
          return { ...(await sendTo(String(err.migrateToChatId))), chatMoved: true };
        }
      } catch (err) {
        // Whatever failed as the deadline passed failed because of it.
        if (deadline?.aborted || err instanceof DeadlinePassed) throw new TransientSendError(`the send did not finish within ${budgetMs / 1000} s`);
        if (err instanceof SourceRefused) return { kind: 'failed', reason: 'can_not_get_content' };
        if (err instanceof FileTooLarge) return { kind: 'failed', reason: 'bad_content' };
        if (err instanceof BotApiUnreachable || err instanceof TransferFailed) throw new TransientSendError(err.message);
        if (!(err instanceof BotApiError)) throw err;
        const reason = failureOf(err);
        if (reason === null) throw new TransientSendError(`Telegram answered ${err.errorCode}: ${err.message}`, err.retryAfter === null ? null : err.retryAfter * 1000);
        await noteRevoked(err, m.channelId, m.sealedCredentials);
        return { kind: 'failed', reason };
      }
    },

    async edit(ref) {
      const messageId = changedMessageId(ref.messengerMessageId, 'edited');
      const deadline = ref.attachment ? AbortSignal.timeout(budgetMs) : undefined;
      const api = apiFor(ref.sealedCredentials, null, deadline);
      const markup = replyMarkup(ref.keyboard);
      // An edit that leaves out the inline keyboard removes it: it is given again.
      const target = { chat_id: chatOf(ref), message_id: messageId, ...(markup?.inline_keyboard ? { reply_markup: markup } : {}) };
      try {
        if (ref.attachment && deadline) {
          await uploadWith(api, ref.attachment, editFileCall(target, ref.text), deadline);
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
        if (deadline?.aborted || err instanceof DeadlinePassed) throw new AppError('SERVICE_UNAVAILABLE', `Telegram did not take the edit within ${budgetMs / 1000} s; try again`);
        if (err instanceof SourceRefused) throw validationError([{ field: 'attachment.url', message: `could not be fetched (${err.message})` }]);
        if (err instanceof FileTooLarge) throw validationError([{ field: 'attachment.url', message: err.message }]);
        if (err instanceof TransferFailed) throw new AppError('SERVICE_UNAVAILABLE', `${err.message}; try again`);
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        throw changeRefused(err, 'edited');
      }
    },

    async remove(ref) {
      const messageId = changedMessageId(ref.messengerMessageId, 'deleted');
      try {
        await apiFor(ref.sealedCredentials, null).call('deleteMessage', { chat_id: chatOf(ref), message_id: messageId });
      } catch (err) {
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        throw changeRefused(err, 'deleted');
      }
    },

    // Bots may set only Telegram's standard reaction emoji: another is refused as invalid.
    async react(ref) {
      const messageId = telegramMessageId(ref.messengerMessageId);
      if (messageId === null) throw new AppError('MESSAGE_NOT_FOUND', 'Telegram no longer knows this message by its number (the group became a supergroup)');
      try {
        await apiFor(ref.sealedCredentials, null).call('setMessageReaction', reactionParams(chatOf(ref), messageId, ref.emoji));
      } catch (err) {
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        if (err instanceof BotApiError && /REACTION_INVALID/i.test(err.message)) throw validationError([{ field: 'emoji', message: 'is not one of the reactions Telegram lets a bot set' }]);
        throw changeRefused(err, 'reacted to');
      }
    },

    // "typing" shows for 5 s or until the bot's next message.
    async sendTyping(chat) {
      await apiFor(chat.sealedCredentials, chat.chatId).call('sendChatAction', { chat_id: chat.chatId, action: 'typing' });
    },
  };
}
