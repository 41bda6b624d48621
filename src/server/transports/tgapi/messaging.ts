import { createHash } from 'node:crypto';
import type { TelegramClient } from '@mtcute/core/client.js';
import type { Long, Message, tl } from '@mtcute/core';
import type { Dispatcher } from 'undici';
import type { Attachment } from '../../../contract/messages.ts';
import { AppError, validationError } from '../../core/errors.ts';
import { TransientSendError, type MessagingDriver, type OutboundMessage, type SendOutcome, type SentMessageRef } from '../../core/messages/ports.ts';
import type { CallLimits, CallPacer } from '../call-pacer.ts';
import { FileTooLarge, fetchSource, readWhole, SourceRefused, sourceTypeOf, TransferFailed, uploadNameOf } from '../file-source.ts';
import type { AccountSession } from './account-session.ts';
import { errorText, floodWaitSeconds, refusalOf, SESSION_ENDED } from './refusals.ts';
import { phoneLookups, type PhoneLookups } from '../../core/pacing/lookups.ts';
import { isWebmSound, oggNameOf, oggOpusOf, OGG_OPUS } from '../voice-note.ts';

/** A personal account's pace: Telegram answers faster sends with FLOOD_WAIT; a chat takes about one message a second. */
export const tgapiLimits: CallLimits = { bot: { limit: 20, interval: 1_000 }, chat: { limit: 1, interval: 1_000 } };

/** Files larger than this are refused before upload (Telegram takes 2 GB, but the gateway holds a file in memory). */
const FILE_LIMIT_BYTES = 50 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
/** How many of a chat's latest messages are searched for the one a repeated send made the first time. */
const DUPLICATE_SEARCH = 50;

export interface TgapiMessagingDeps {
  /** The channel's session running in this process, if it is (else the send waits for the process that runs it). */
  session(channelId: string): AccountSession | undefined;
  pacer: CallPacer;
  filesAgent: Dispatcher;
  allowLoopbackFiles: boolean;
  /** Telegram ended the session while sending: the channel is logged out. */
  ended(channelId: string): Promise<void>;
  /** Remembers which chat a message number is in (deletions in private chats name numbers only). */
  remember(channelId: string, messageId: number, chat: { chatType: 'telegram' | 'telegroup'; chatId: string }): void;
}

/**
 * The `random_id` of a send: derived from its request id, so that a send repeated after a crash (sent, but its answer
 * never recorded) is the same message to Telegram, which keeps one per random id, not a second one.
 */
export async function telegramRandomId(requestId: string): Promise<Long> {
  // Loaded on the first send rather than at start: the library weighs tens of MB, and most gateways run no
  // personal Telegram account.
  const { Long } = await import('@mtcute/core');
  return Long.fromBytesLE([...createHash('sha256').update(requestId).digest().subarray(0, 8)]);
}

/** The resolver's answer: the chat to write to, or why nobody can be written to. */
type Target = { peer: tl.TypeInputPeer; chatId: string } | { refused: 'contact_can_not_create' | 'bad_contact' };

const peerIdOf = (peer: tl.TypeInputPeer): string => {
  if (peer._ === 'inputPeerUser') return String(peer.userId);
  if (peer._ === 'inputPeerChat') return String(-peer.chatId);
  if (peer._ === 'inputPeerChannel') return `-100${peer.channelId}`;
  throw new Error(`cannot write to ${peer._}`);
};

/** The chat a send goes to: by its id, else a new customer found by username or phone (`contacts.resolvePhone`). */
async function targetOf(client: TelegramClient, m: OutboundMessage, lookups: PhoneLookups): Promise<Target> {
  try {
    if (m.chatId) {
      const peer = await client.resolvePeer(Number(m.chatId));
      return { peer, chatId: m.chatId };
    }
    if (m.username) {
      const peer = await client.resolvePeer(m.username.replace(/^@/, ''));
      return { peer, chatId: peerIdOf(peer) };
    }
    if (m.phone) {
      // One number at a time per account, remembered (Telegram's refusal too): bulk resolving gets accounts banned.
      const phone = m.phone.replace(/\D/g, '');
      const asked = await lookups.resolve(
        m.channelId,
        phone,
        () => client.call({ _: 'contacts.resolvePhone', phone }).then((peer) => ({ peer, refused: null }), (err: unknown) => (errorText(err) === null || floodWaitSeconds(err) !== null ? Promise.reject(err) : { peer: null, refused: err })),
        (a) => a.refused === null,
      );
      if (asked.refused !== null) throw asked.refused;
      const found = asked.peer!;
      const peer = await client.resolvePeer(Number(peerIdOf({ _: 'inputPeerUser', userId: (found.peer as tl.RawPeerUser).userId, accessHash: 0 as never })));
      return { peer, chatId: peerIdOf(peer) };
    }
  } catch (err) {
    if (errorText(err) !== null && refusalOf(err) !== 'contact_can_not_create' && refusalOf(err) !== 'bad_contact') throw err;
    // A name nobody holds, a number nobody uses, or an id this account has never seen (no access hash for it).
    return { refused: m.chatId ? 'bad_contact' : 'contact_can_not_create' };
  }
  return { refused: 'contact_can_not_create' };
}

/** "typing…" in the chat for `ms`, renewed every 5 s as Telegram lets it lapse after 6; best effort. */
async function showTyping(client: TelegramClient, peer: tl.TypeInputPeer, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 5_000) {
    await client.sendTyping(peer, 'typing').catch(() => {});
    await new Promise((r) => setTimeout(r, Math.min(left, 5_000)));
  }
}

/** The file a send names, fetched through the guarded agent and held for the upload. */
async function fileOf(deps: TgapiMessagingDeps, attachment: Attachment) {
  const source = await fetchSource(attachment.url, { agent: deps.filesAgent, allowLoopback: deps.allowLoopbackFiles, timeoutMs: FETCH_TIMEOUT_MS }, FILE_LIMIT_BYTES, 'Telegram');
  const bytes = await readWhole(source, FILE_LIMIT_BYTES, 'Telegram');
  return { bytes: new Uint8Array(bytes), type: sourceTypeOf(attachment, source) ?? 'application/octet-stream', name: uploadNameOf(attachment) };
}

/** The file as the kind of message Telegram shows it as: a photo, a video, a voice note (Opus in Ogg), a song, or a document. */
async function mediaOf(deps: TgapiMessagingDeps, attachment: Attachment, caption: string | null) {
  const { InputMedia } = await import('@mtcute/core');
  const fetchedFile = await fileOf(deps, attachment);
  // A voice note a browser recorded (Opus in WebM) goes as Telegram's voice note: its Opus moved into Ogg.
  const voice = isWebmSound(fetchedFile.type) ? await oggOpusOf(fetchedFile.bytes) : null;
  const file = voice ? { bytes: voice, type: OGG_OPUS, name: oggNameOf(fetchedFile.name) } : fetchedFile;
  const params = { fileName: file.name, fileMime: file.type, ...(caption ? { caption } : {}) };
  if (/^image\/(jpeg|png|webp)$/.test(file.type)) return InputMedia.photo(file.bytes, params);
  if (file.type.startsWith('video/')) return InputMedia.video(file.bytes, params);
  if (file.type === 'audio/ogg') return InputMedia.voice(file.bytes, params);
  if (file.type.startsWith('audio/')) return InputMedia.audio(file.bytes, params);
  return InputMedia.document(file.bytes, params);
}

/**
 * The message a send made the first time, when Telegram refused its repetition as RANDOM_ID_DUPLICATE (its random id
 * was taken: the first try got through, and its answer was lost). Telegram does not say which message that is, and
 * messages do not carry their random id: it is the newest of the account's own in the chat with the send's words, its
 * kind (a file or not) and its quote.
 */
async function madeBefore(client: TelegramClient, peer: tl.TypeInputPeer, m: OutboundMessage): Promise<Message | null> {
  const latest = await client.getHistory(peer, { limit: DUPLICATE_SEARCH });
  const quoted = m.quotedMessengerId ? Number(m.quotedMessengerId) : null;
  return (
    latest.find(
      (message) =>
        message.isOutgoing &&
        (message.text || '') === (m.text ?? '') &&
        (message.media !== null) === (m.attachment !== null) &&
        (quoted === null || message.replyToMessage?.id === quoted),
    ) ?? null
  );
}

/** What a refusal of a send means: a failure with the interface's reason, a wait (flood), or a network failure. */
async function sendFailed(deps: TgapiMessagingDeps, channelId: string, err: unknown): Promise<SendOutcome> {
  if (err instanceof TransientSendError) throw err;
  const wait = floodWaitSeconds(err);
  if (wait !== null) throw new TransientSendError(`Telegram asked to wait ${wait} s`, wait * 1_000);
  if (err instanceof SourceRefused) return { kind: 'failed', reason: 'bad_content' };
  if (err instanceof FileTooLarge) return { kind: 'failed', reason: 'bad_content' };
  if (err instanceof TransferFailed) throw new TransientSendError(err.message);
  const reason = refusalOf(err);
  if (reason === null) throw new TransientSendError(err instanceof Error ? err.message : String(err));
  if (SESSION_ENDED.has(errorText(err)!)) await deps.ended(channelId);
  return { kind: 'failed', reason };
}

/** Why an edit or a delete was refused, as the API answers it. */
function changeRefused(err: unknown, what: 'edited' | 'deleted'): AppError {
  const text = errorText(err);
  if (text === null || floodWaitSeconds(err) !== null) return new AppError('SERVICE_UNAVAILABLE', `Telegram could not be asked; try again (${err instanceof Error ? err.message : String(err)})`);
  if (SESSION_ENDED.has(text)) return new AppError('CHANNEL_WRONG_STATUS', 'Telegram ended the account’s session; reconnect the channel');
  if (text === 'MESSAGE_ID_INVALID') return new AppError('MESSAGE_NOT_FOUND', `Telegram no longer has this message (${text})`);
  if (text === 'MESSAGE_EDIT_TIME_EXPIRED' || text === 'MESSAGE_DELETE_FORBIDDEN') return new AppError('MESSAGES_EDITING_TIME_EXPIRED', `Telegram no longer lets this message be ${what} (${text})`);
  return new AppError('SERVICE_UNAVAILABLE', `Telegram refused: ${text}`);
}

function sessionOf(deps: TgapiMessagingDeps, channelId: string): AccountSession {
  const session = deps.session(channelId);
  if (!session?.ready) throw new AppError('SERVICE_UNAVAILABLE', 'The account’s session is not running in this process; try again');
  return session;
}

/** Sends, edits and deletes as the personal account, through the session this process runs for the channel. */
export function tgapiMessaging(deps: TgapiMessagingDeps): MessagingDriver {
  const lookups = phoneLookups();
  return {
    async send(m) {
      const session = deps.session(m.channelId);
      if (!session?.ready) throw new TransientSendError('the account’s session is not running in this process yet');
      const client = session.client;
      try {
        const target = await deps.pacer.pace(m.channelId, null, () => targetOf(client, m, lookups));
        if ('refused' in target) return { kind: 'failed', reason: target.refused };
        // A personal channel's pacing asks for "typing…" first (Telegram shows it about 6 s a call; it ends with the send).
        if (m.typingMs) await showTyping(client, target.peer, m.typingMs);
        const replyTo = m.quotedMessengerId ? Number(m.quotedMessengerId) : undefined;
        const params = { randomId: await telegramRandomId(m.requestId), ...(replyTo ? { replyTo } : {}) };
        const sent = await deps.pacer.pace(m.channelId, target.chatId, async () => {
          try {
            if (m.attachment) return await client.sendMedia(target.peer, await mediaOf(deps, m.attachment, m.text), params);
            if (!m.text) throw Object.assign(new Error('MESSAGE_EMPTY'), { code: 400, text: 'MESSAGE_EMPTY' });
            return await client.sendText(target.peer, m.text, params);
          } catch (err) {
            if (errorText(err) !== 'RANDOM_ID_DUPLICATE') throw err;
            // An earlier try made the message: that one is the send's, recorded as sent under its own number.
            const made = await madeBefore(client, target.peer, m);
            if (!made) throw new TransientSendError('Telegram holds this send already (RANDOM_ID_DUPLICATE), but it is not among the chat’s latest messages');
            return made;
          }
        });
        deps.remember(m.channelId, sent.id, { chatType: m.chatType === 'telegroup' ? 'telegroup' : 'telegram', chatId: String(sent.chat.id) });
        return { kind: 'sent', messengerMessageId: String(sent.id), chatId: String(sent.chat.id), delivered: false };
      } catch (err) {
        return sendFailed(deps, m.channelId, err);
      }
    },
    async edit(ref: SentMessageRef & { text: string | null; attachment: Attachment | null }) {
      const client = sessionOf(deps, ref.channelId).client;
      try {
        const chatId = Number(ref.chatId);
        const message = Number(ref.messengerMessageId);
        if (ref.attachment) {
          const media = await mediaOf(deps, ref.attachment, ref.text).catch((err: unknown) => {
            throw validationError([{ field: 'attachment.url', message: `could not be fetched (${err instanceof Error ? err.message : String(err)})` }]);
          });
          await client.editMessage({ chatId, message, media });
        } else {
          await client.editMessage({ chatId, message, text: ref.text ?? '' });
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (errorText(err) === 'MESSAGE_NOT_MODIFIED') return;
        if (SESSION_ENDED.has(errorText(err) ?? '')) await deps.ended(ref.channelId);
        throw changeRefused(err, 'edited');
      }
    },
    async remove(ref) {
      const client = sessionOf(deps, ref.channelId).client;
      try {
        await client.deleteMessagesById(Number(ref.chatId), [Number(ref.messengerMessageId)], { revoke: true });
      } catch (err) {
        if (SESSION_ENDED.has(errorText(err) ?? '')) await deps.ended(ref.channelId);
        throw changeRefused(err, 'deleted');
      }
    },
    // The account's one reaction (null takes it back); a file's caption is recorded as `<number>:caption`.
    async react(ref) {
      const client = sessionOf(deps, ref.channelId).client;
      try {
        await client.sendReaction({ chatId: Number(ref.chatId), message: Number(ref.messengerMessageId.split(':')[0]), emoji: ref.emoji });
      } catch (err) {
        if (SESSION_ENDED.has(errorText(err) ?? '')) await deps.ended(ref.channelId);
        throw changeRefused(err, 'edited');
      }
    },
    // Once (about 5 s on the customer's screen): the library's setTyping would repeat it until told to stop.
    async sendTyping(chat) {
      const client = sessionOf(deps, chat.channelId).client;
      await client.call({ _: 'messages.setTyping', peer: await client.resolvePeer(Number(chat.chatId)), action: { _: 'sendMessageTypingAction' } });
    },
  };
}
