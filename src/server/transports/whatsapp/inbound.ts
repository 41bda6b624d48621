import type { WAMessage, WAMessageUpdate } from 'baileys';
import type { ChatType } from '../../../contract/channels.ts';
import type { Attachment } from '../../../contract/messages.ts';
import type { GroupReport } from '../../core/groups/group-changes.ts';
import type { MemberStatus } from '../../core/groups/ports.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { AGENT_REACTOR } from '../../core/messages/reactions.ts';
import { chatOf, userOf } from './addresses.ts';
import { ackRefusal } from './refusals.ts';
import { captionNumberOf } from '../../core/messages/caption-number.ts';
import type { WaEvents } from './wa-socket.ts';

/** proto.Message.ProtocolMessage.Type's values the driver reads (a message taken back, a message edited). */
const REVOKE = 0;
const MESSAGE_EDIT = 14;
/** proto.WebMessageInfo.Status: the receipts of the account's own messages (ERROR: WhatsApp refused it after taking it). */
const ERROR = 0;
const DELIVERY_ACK = 3;
const READ = 4;
const PLAYED = 5;

type Content = NonNullable<WAMessage['message']>;

/**
 * The message inside WhatsApp's wrappers (disappearing, view-once, a document with a caption, an edit's future-proof
 * envelope), as the library's own `normalizeMessageContent` unwraps them.
 */
function unwrapped(m: Content | null | undefined): Content | null {
  let content = m ?? null;
  for (let depth = 0; content && depth < 5; depth++) {
    const inner =
      content.ephemeralMessage?.message ??
      content.viewOnceMessage?.message ??
      content.viewOnceMessageV2?.message ??
      content.viewOnceMessageV2Extension?.message ??
      content.documentWithCaptionMessage?.message ??
      content.editedMessage?.message;
    if (!inner) break;
    content = inner;
  }
  return content;
}

/** The words of a text message (a plain text, or one with a link or a quote). */
const textOf = (m: Content | null): string | null => m?.conversation ?? m?.extendedTextMessage?.text ?? null;

/** A media message's file as WhatsApp describes it, before the gateway keeps it. */
export interface WaMedia {
  kind: 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker';
  mimetype: string;
  name: string;
  /** Bytes, as the sender's client told them (null when it did not). */
  size: number | null;
  caption: string | null;
}

type Long = { toNumber(): number };
/** A protobuf 64-bit number (a Long where the decoder made one). */
export const numberOf = (value: number | Long | null | undefined): number | null => (typeof value === 'number' ? value : value ? value.toNumber() : null);

/** A file's name where WhatsApp gives none (only documents have one): its kind and the extension of its type. */
const nameOf = (kind: WaMedia['kind'], mimetype: string) => `${kind}.${mimetype.split(';')[0]!.split('/')[1]?.split('+')[0] ?? 'bin'}`;

function media(kind: WaMedia['kind'], m: { mimetype?: string | null; fileLength?: number | Long | null; caption?: string | null; fileName?: string | null }, fallbackType: string): WaMedia {
  const mimetype = m.mimetype || fallbackType;
  return { kind, mimetype, name: m.fileName || nameOf(kind, mimetype), size: numberOf(m.fileLength), caption: m.caption || null };
}

/** The file a message carries, if it is one of the kinds the gateway records (a voice note is an audio with `ptt`). */
export function mediaOf(m: Content | null): WaMedia | null {
  if (!m) return null;
  if (m.imageMessage) return media('image', m.imageMessage, 'image/jpeg');
  if (m.videoMessage) return media('video', m.videoMessage, 'video/mp4');
  if (m.audioMessage) return media(m.audioMessage.ptt ? 'voice' : 'audio', m.audioMessage, 'audio/ogg');
  if (m.documentMessage) return media('document', m.documentMessage, 'application/octet-stream');
  if (m.stickerMessage) return media('sticker', m.stickerMessage, 'image/webp');
  return null;
}

/** The message this one answers, whichever kind of message carries the quote. */
function quotedIdOf(m: Content): string | undefined {
  const kinds = [m.extendedTextMessage, m.imageMessage, m.videoMessage, m.audioMessage, m.documentMessage, m.stickerMessage];
  return kinds.find((kind) => kind?.contextInfo?.stanzaId)?.contextInfo?.stanzaId ?? undefined;
}

/**
 * Keeps a media message's file where the gateway serves it (its attachment); `recorded` when the message is
 * recorded already (it came again: nothing is downloaded); null when the file could not be had.
 */
export type KeepFile = (message: WAMessage, chat: { chatType: ChatType; chatId: string }, media: WaMedia) => Promise<Attachment | 'recorded' | null>;

/** An edit, as the messages recorded of the original: its words, or the caption of its file (`<id>:caption`). */
function editOf(chat: { chatType: ChatType; chatId: string }, target: string, edited: Content | null): PlatformReport | null {
  const text = textOf(edited);
  if (text !== null) return { kind: 'edit', edit: { ...chat, messengerMessageId: target, text } };
  const file = mediaOf(edited);
  if (file) return { kind: 'edit', edit: { ...chat, messengerMessageId: captionNumberOf(target), text: file.caption ?? '' } };
  return null;
}

/** The member who wrote in a group: by number where WhatsApp gives one (a `@lid` participant may carry it beside). */
function memberOf(key: { participant?: string | null }, name: string | null): Pick<ArrivingMessage, 'sender'> {
  const ids = [key.participant, (key as { participantAlt?: string | null }).participantAlt].filter((j): j is string => typeof j === 'string' && j.length > 0);
  const byNumber = ids.find((j) => j.endsWith('@s.whatsapp.net'));
  const any = byNumber ?? ids[0];
  if (!any) return {};
  const chatId = userOf(any);
  return { sender: { chat_type: 'whatsapp', chat_id: chatId, name, username: null, phone: byNumber ? chatId : null } };
}

/**
 * A reaction (an emoji, or none: taken back) to a message of the chat: by the account's phone (`agent`), the member
 * in a group, or the customer.
 */
function reactionOf(
  chat: { chatType: ChatType; chatId: string },
  key: NonNullable<WAMessage['key']>,
  reaction: NonNullable<Content['reactionMessage']>,
): PlatformReport | null {
  const target = reaction.key?.id;
  if (!target) return null;
  const member = chat.chatType === 'whatsgroup' ? memberOf(key, null).sender?.chat_id : chat.chatId;
  const reactor = key.fromMe ? AGENT_REACTOR : member;
  if (!reactor) return null;
  return { kind: 'reaction', reaction: { ...chat, messengerMessageId: target, reactor, emoji: reaction.text || null } };
}

/**
 * What WhatsApp's upsert of messages reports for the gateway: customers' messages, the account's own written on the
 * phone (`outbound`, echoes of the gateway's own sends included: recorded once, by their id), edits and messages
 * taken back. A file is one message (kept through `keep`) and its caption another, `<id>:caption`, as the
 * interface's messages carry text or an attachment, and reactions. Status broadcasts and protocol chatter are left out.
 */
export async function reportsOfMessages(messages: readonly WAMessage[], keep: KeepFile | null): Promise<PlatformReport[]> {
  const reports: PlatformReport[] = [];
  for (const m of messages) {
    const key = m.key;
    if (!key?.remoteJid || !key.id || !m.message) continue;
    const chat = chatOf(key.remoteJid, (key as { remoteJidAlt?: string }).remoteJidAlt);
    if (!chat) continue;
    const content = unwrapped(m.message);
    const protocol = content?.protocolMessage;
    if (protocol) {
      const target = protocol.key?.id;
      if (!target) continue;
      if (protocol.type === REVOKE) reports.push({ kind: 'delete', delete: { ...chat, messengerMessageId: target } });
      else if (protocol.type === MESSAGE_EDIT) {
        const edit = editOf(chat, target, unwrapped(protocol.editedMessage));
        if (edit) reports.push(edit);
      }
      continue;
    }
    if (!content) continue;
    const fromMe = key.fromMe === true;
    if (content.reactionMessage) {
      const reaction = reactionOf(chat, key, content.reactionMessage);
      if (reaction) reports.push(reaction);
      continue;
    }
    const isGroup = chat.chatType === 'whatsgroup';
    const quoted = quotedIdOf(content);
    const base = {
      ...chat,
      username: null,
      // A group chat has no number of its own, and is named by its subject, not by whoever wrote in it first.
      phone: isGroup ? null : chat.chatId,
      name: fromMe || isGroup ? null : (m.pushName ?? null),
      direction: fromMe ? 'outbound' : 'inbound',
      ...(quoted ? { quotedMessengerId: quoted } : {}),
      ...(fromMe ? { echo: true } : {}),
      ...(isGroup && !fromMe ? memberOf(key, m.pushName ?? null) : {}),
    } satisfies Partial<ArrivingMessage>;
    const file = mediaOf(content);
    if (!file) {
      const text = textOf(content);
      if (text !== null) reports.push({ kind: 'message', message: { ...base, text, attachment: null, messengerMessageId: key.id } });
      continue;
    }
    const attachment = keep ? await keep(m, chat, file) : null;
    if (attachment === 'recorded') continue;
    if (attachment) reports.push({ kind: 'message', message: { ...base, text: null, attachment, messengerMessageId: key.id } });
    if (file.caption) reports.push({ kind: 'message', message: { ...base, text: file.caption, attachment: null, messengerMessageId: attachment ? captionNumberOf(key.id) : key.id } });
  }
  return reports;
}

/** Receipts of the account's own messages: delivered to the phone, read (or played), or refused (failed). */
export function reportsOfUpdates(updates: readonly WAMessageUpdate[]): PlatformReport[] {
  const reports: PlatformReport[] = [];
  for (const { key, update } of updates) {
    if (!key.remoteJid || !key.id || !key.fromMe || typeof update.status !== 'number') continue;
    const chat = chatOf(key.remoteJid);
    if (!chat) continue;
    if (update.status === ERROR) {
      const code = (update.messageStubParameters as unknown[] | null | undefined)?.[0];
      reports.push({ kind: 'status', status: { ...chat, messengerMessageId: key.id, status: 'failed', reason: ackRefusal(typeof code === 'string' ? code : undefined) } });
    }
    if (update.status === DELIVERY_ACK) reports.push({ kind: 'status', status: { ...chat, messengerMessageId: key.id, status: 'delivered', reason: null } });
    if (update.status === READ || update.status === PLAYED) reports.push({ kind: 'read', read: { ...chat, messengerMessageId: key.id } });
  }
  return reports;
}

/** Who joined a group (added, invited, by its link) and who left it (or was removed); a promotion changes no membership. */
const MEMBERSHIP: Readonly<Partial<Record<WaEvents['group-participants.update']['action'], MemberStatus>>> = { add: 'in_group', remove: 'deleted' };

/** A group's members that joined or left, each known by their number where WhatsApp gives it (else by their private id). */
export function groupOfParticipants(update: WaEvents['group-participants.update']): GroupReport | null {
  const status = MEMBERSHIP[update.action];
  const chat = chatOf(update.id);
  if (!status || chat?.chatType !== 'whatsgroup' || update.participants.length === 0) return null;
  const members = update.participants.map((p) => ({ memberId: userOf(p.phoneNumber ?? p.id), name: p.notify ?? p.name ?? null, avatarUrl: null, status }));
  return { ...chat, members };
}

/** Groups renamed (their subject). A description is not part of the interface's group, so its change reports nothing. */
export function groupsOfUpdates(updates: WaEvents['groups.update']): GroupReport[] {
  const reports: GroupReport[] = [];
  for (const update of updates) {
    const chat = update.id ? chatOf(update.id) : null;
    if (chat?.chatType === 'whatsgroup' && typeof update.subject === 'string') reports.push({ ...chat, name: update.subject });
  }
  return reports;
}
