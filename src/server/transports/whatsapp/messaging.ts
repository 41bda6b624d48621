import { createHash } from 'node:crypto';
import { TransientSendError, type MessagingDriver, type SendOutcome } from '../../core/messages/ports.ts';
import { disconnectCode } from './wa-socket.ts';
import { FileTooLarge, SourceRefused, TransferFailed } from '../file-source.ts';
import { isGroupChatId, jidOf, userOf } from './addresses.ts';
import { outboundContent, type OutboundFileDeps } from './media.ts';
import { ackRefusal, isRateLimited, RATE_LIMITED_WAIT_MS, sendRefusal } from './refusals.ts';
import { ACK_WAIT_MS, type SendAcks } from './acks.ts';
import { SEND_TURN_HOLD_MS, SEND_TURN_WAIT_MS, SendSlots } from './send-slots.ts';
import { realTimers } from './timers.ts';
import type { LiveSockets } from './session.ts';
import { subscribePresence } from './presence.ts';
import { showTyping } from './typing.ts';
import { phoneLookups } from '../../core/pacing/lookups.ts';

/**
 * The message's id on WhatsApp, drawn from the gateway's request id: a send made again after a crash (its answer lost)
 * carries the same id, and WhatsApp and the phone take it as the same message rather than a second one.
 */
export const whatsappMessageId = (requestId: string): string => `3EB0${createHash('sha256').update(requestId).digest('hex').slice(0, 18).toUpperCase()}`;

const digits = (phone: string) => phone.replace(/\D/g, '');

/** The socket of a channel whose session runs here; sends are claimed only where it runs, so a miss is a moment's. */
function socketOf(sockets: LiveSockets, channelId: string) {
  const socket = sockets.get(channelId);
  if (!socket) throw new TransientSendError('the WhatsApp session is not connected in this process');
  return socket;
}

/** A library call that failed on the connection rather than on the message: tried again later. */
const transient = (err: unknown): never => {
  throw new TransientSendError(`WhatsApp did not take the call (${disconnectCode(err) ?? (err as Error).message})`);
};

/** Numbers known to have WhatsApp (`<channel id>:<number>`): they wrote, or WhatsApp said so. */
export type KnownNumbers = Set<string>;

/** The file a send names as WhatsApp's content; a file that cannot be had for good fails the send as `bad_content`. */
async function fileContent(files: OutboundFileDeps, m: Parameters<MessagingDriver['send']>[0]) {
  try {
    return await outboundContent(files, m.attachment!, m.text);
  } catch (err) {
    if (err instanceof SourceRefused || err instanceof FileTooLarge) return null;
    if (err instanceof TransferFailed) throw new TransientSendError(err.message);
    throw err;
  }
}

/**
 * Sends (text, or a file the library encrypts and uploads), edits and deletes through the channel's live session. A
 * send is `sent` once WhatsApp's server acknowledged its message, not when it was written to the connection: until
 * then it stays `accepted`, and a send whose acknowledgement did not come (within `ackWaitMs`, or before the
 * connection closed) goes back to the queue and is written again under the same id, through whichever process runs
 * the session by then. WhatsApp takes a message written again under its id as the same message.
 */
export function whatsappMessaging(
  sockets: LiveSockets,
  known: KnownNumbers,
  files: OutboundFileDeps,
  acks: SendAcks,
  ackWaitMs = ACK_WAIT_MS,
  slots = new SendSlots(realTimers),
): MessagingDriver {
  // "Is this number on WhatsApp" asked one number at a time per channel and remembered: bulk checks get numbers banned.
  const lookups = phoneLookups();
  const sendNow = async (m: Parameters<MessagingDriver['send']>[0]): Promise<SendOutcome> => {
    const socket = socketOf(sockets, m.channelId);
    // A number the gateway has not heard from is asked about first: WhatsApp takes messages to numbers without an
    // account and never delivers them.
    let chatId = m.chatId ?? (m.phone ? digits(m.phone) : '');
    if (!isGroupChatId(chatId) && !known.has(`${m.channelId}:${chatId}`)) {
      const number = chatId;
      const [found] = number ? ((await lookups.resolve(m.channelId, number, () => socket.onWhatsApp(number), (r) => Boolean(r?.[0]?.exists)).catch(transient)) ?? []) : [];
      if (!found?.exists) return { kind: 'failed', reason: 'bad_contact' };
      // WhatsApp's own number for it, where it differs from the one written (a Brazilian mobile registered
      // without its ninth digit): the chat is WhatsApp's, and moves there.
      if (found.jid.endsWith('@s.whatsapp.net')) chatId = userOf(found.jid);
      known.add(`${m.channelId}:${chatId}`);
    }
    if (!m.attachment && !m.text) return { kind: 'failed', reason: 'message_empty' };
    const content = m.attachment ? await fileContent(files, m) : { text: m.text! };
    if (!content) return { kind: 'failed', reason: 'bad_content' };
    const id = whatsappMessageId(m.requestId);
    const answered = (ack: { error?: string }): SendOutcome =>
      ack.error ? { kind: 'failed', reason: ackRefusal(ack.error) } : { kind: 'sent', messengerMessageId: id, chatId, delivered: false, ...(m.chatId && m.chatId !== chatId ? { chatMoved: true } : {}) };
    // Written before and acknowledged after its wait ended: taken already, not written again.
    const earlier = acks.known(id);
    if (earlier) return answered(earlier);
    if (m.attachment) files.ownSends.set(id, true);
    const jid = jidOf(chatId);
    const quoted = m.quotedMessengerId ? { key: { remoteJid: jid, id: m.quotedMessengerId, fromMe: false }, message: {} } : undefined;
    // A personal channel's pacing asks for "typing…" first, as long as a person would take to type the text.
    if (m.typingMs) await showTyping(socket, jid, m.typingMs);
    acks.written(m.channelId, id);
    try {
      await socket.sendMessage(jid, content, { messageId: id, ...(quoted ? { quoted } : {}) });
    } catch (err) {
      const reason = sendRefusal(err);
      if (reason) return { kind: 'failed', reason };
      if (isRateLimited(err)) throw new TransientSendError('WhatsApp asked to slow down (rate-overlimit)', RATE_LIMITED_WAIT_MS);
      return transient(err);
    }
    // Throws TransientSendError when no acknowledgement came: the send is tried again, under the same id.
    return answered(await acks.wait(m.channelId, id, ackWaitMs));
  };
  return {
    // A few of a channel's sends at a time: after a reconnect every chat's unacknowledged send comes at once.
    // A paced send's "typing…" is part of its turn (paced channels send one at a time, so it waits for none).
    send: (m) => slots.run(m.channelId, SEND_TURN_WAIT_MS, () => sendNow(m), SEND_TURN_HOLD_MS + (m.typingMs ?? 0)),
    async edit(ref) {
      if (!ref.chatId) return;
      const jid = jidOf(ref.chatId);
      await socketOf(sockets, ref.channelId).sendMessage(jid, { text: ref.text ?? '', edit: { remoteJid: jid, fromMe: true, id: ref.messengerMessageId } }).catch(transient);
    },
    async remove(ref) {
      if (!ref.chatId) return;
      const jid = jidOf(ref.chatId);
      await socketOf(sockets, ref.channelId).sendMessage(jid, { delete: { remoteJid: jid, fromMe: true, id: ref.messengerMessageId } }).catch(transient);
    },
    // An empty reaction takes the account's back. A file's caption is recorded as `<id>:caption`: the reaction is the file's.
    async react(ref) {
      if (!ref.chatId) return;
      const jid = jidOf(ref.chatId);
      const id = ref.messengerMessageId.split(':')[0]!;
      const key = { remoteJid: jid, fromMe: ref.direction === 'outbound', id };
      await socketOf(sockets, ref.channelId).sendMessage(jid, { react: { text: ref.emoji ?? '', key } }).catch(transient);
    },
    // "composing" lasts until WhatsApp's own timeout (about 25 s) or the next message: sent again while the agent types.
    // The agent in the chat is also when the customer's own typing is worth hearing: it is asked for (once a connection).
    async sendTyping(chat) {
      const socket = socketOf(sockets, chat.channelId);
      subscribePresence(socket, jidOf(chat.chatId));
      await socket.sendPresenceUpdate('composing', jidOf(chat.chatId)).catch(transient);
    },
  };
}
