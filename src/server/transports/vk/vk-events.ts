import type { Attachment } from '../../../contract/messages.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { captionNumberOf } from '../../core/messages/caption-number.ts';
import { typeByName } from '../bot-common.ts';

/**
 * What VK's Callback API posts, as the gateway reads it (dev.vk.com "Callback API", "Формат событий", "Объект
 * сообщения"): `{type, object, group_id, event_id, v, secret}`. `message_new`'s object is `{message, client_info}`
 * (API 5.103 and later); `message_reply` (a message the community wrote, through the API or VK's own pages) and
 * `message_edit` give the message itself. A message has `id` (the community's number of it), `peer_id` (the
 * dialog: a user's id; 2000000000 and more for a group chat, which the gateway does not carry), `from_id`, `text`,
 * `attachments[]` (`photo` with `sizes[]` of `url`, `width`, `height`; `doc` with `url`, `title`, `ext`, `size`;
 * `audio_message` with `link_ogg`, `link_mp3`) and `reply_message` (the message quoted). `message_allow` and
 * `message_deny` say a user allowed or forbade the community's messages (`user_id`).
 */

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Peers of 2000000000 and more are group chats; negative ones other communities. Only users' dialogs are carried. */
const GROUP_CHATS_FROM = 2_000_000_000;

export type VkEvent =
  | { kind: 'confirmation' }
  /** What the event reports of the community's dialogs; `customer`: the user who wrote, whose name is looked up. */
  | { kind: 'reports'; reports: PlatformReport[]; customer: string | null }
  | { kind: 'none' };

/** A user's dialog, by its `peer_id`, as the chat's id. */
function userPeerOf(message: Record<string, unknown>): string | null {
  const peer = message.peer_id;
  return typeof peer === 'number' && Number.isSafeInteger(peer) && peer > 0 && peer < GROUP_CHATS_FROM ? String(peer) : null;
}

const messageIdOf = (message: Record<string, unknown>): string | null =>
  typeof message.id === 'number' && Number.isSafeInteger(message.id) && message.id > 0 ? String(message.id) : null;

const docTypes: ReadonlyMap<string, string> = new Map([
  ['pdf', 'application/pdf'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['txt', 'text/plain'],
  ['zip', 'application/zip'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
]);

/**
 * A file of the message as an attachment, by VK's own address: a photo's largest size, a document's `url`, a voice
 * message's OGG. VK's addresses of these carry their own access (no key is needed to download them), so they are
 * handed on as they are rather than behind links of the gateway's; VK may stop serving one after a while
 * (inferred: its documentation does not say how long they last).
 */
export function attachmentOf(item: unknown): Attachment | null {
  if (!isObject(item) || typeof item.type !== 'string' || !isObject(item[item.type])) return null;
  const body = item[item.type] as Record<string, unknown>;
  const http = (x: unknown): x is string => typeof x === 'string' && /^https?:\/\//.test(x) && x.length <= 2048;
  if (item.type === 'photo') {
    const sizes = (Array.isArray(body.sizes) ? body.sizes : []).filter((s): s is { url: string; width?: number; height?: number } => isObject(s) && http(s.url));
    const largest = sizes.reduce<(typeof sizes)[number] | null>((best, s) => (!best || (s.width ?? 0) * (s.height ?? 0) > (best.width ?? 0) * (best.height ?? 0) ? s : best), null);
    return largest ? { url: largest.url, mimetype: 'image/jpeg' } : null;
  }
  if (item.type === 'doc' && http(body.url)) {
    const name = typeof body.title === 'string' && body.title ? body.title.slice(0, 256) : null;
    const ext = typeof body.ext === 'string' ? body.ext : null;
    const mimetype = typeByName(name ?? (ext ? `file.${ext}` : null), docTypes) ?? (ext ? typeByName(`file.${ext}`, docTypes) : undefined);
    return { url: body.url, ...(name ? { name } : {}), ...(mimetype ? { mimetype } : {}), ...(typeof body.size === 'number' ? { size: body.size } : {}) };
  }
  if (item.type === 'audio_message') {
    if (http(body.link_ogg)) return { url: body.link_ogg, mimetype: 'audio/ogg' };
    if (http(body.link_mp3)) return { url: body.link_mp3, mimetype: 'audio/mpeg' };
  }
  return null;
}

/**
 * A message of a user's dialog as the gateway records it: each file a message of its own (the first `<id>`, then
 * `<id>:<n>` from 1), then its words, `<id>:caption` after files (the caption of the file before them, as the other
 * drivers record one, so that the chat frame draws the two as one message), else the message `<id>` itself.
 * `direction` outbound for the community's own (an echo: it may be a send of the gateway's whose answer is not
 * recorded yet, or the rest of one, a file with its caption, recorded whole).
 */
export function arrivalsOf(message: Record<string, unknown>, direction: 'inbound' | 'outbound'): ArrivingMessage[] {
  const chatId = userPeerOf(message);
  const id = messageIdOf(message);
  if (chatId === null || id === null) return [];
  const quoted = isObject(message.reply_message) ? messageIdOf(message.reply_message) : null;
  const common = {
    chatType: 'vk' as const,
    chatId,
    username: null,
    phone: null,
    name: null,
    direction,
    ...(direction === 'outbound' ? { echo: true } : {}),
    ...(quoted ? { quotedMessengerId: quoted } : {}),
  };
  const text = typeof message.text === 'string' && message.text.length > 0 ? message.text : null;
  const files = (Array.isArray(message.attachments) ? message.attachments : []).map(attachmentOf).filter((a): a is Attachment => a !== null);
  const found: ArrivingMessage[] = files.map((attachment, i) => ({ ...common, text: null, attachment, messengerMessageId: i === 0 ? id : `${id}:${i}` }));
  // Words beside files were the message `<id>` itself before they were numbered as its caption.
  if (text !== null) found.push({ ...common, text, attachment: null, ...(files.length > 0 ? { messengerMessageId: captionNumberOf(id), earlierNumbers: [id] } : { messengerMessageId: id }) });
  return found;
}

/** One callback of VK's, as the gateway reads it. */
export function eventOf(body: Record<string, unknown>): VkEvent {
  const object = isObject(body.object) ? body.object : null;
  switch (body.type) {
    case 'confirmation':
      return { kind: 'confirmation' };
    case 'message_new': {
      const message = object && isObject(object.message) ? object.message : object;
      if (!message) return { kind: 'none' };
      const reports = arrivalsOf(message, 'inbound').map((m): PlatformReport => ({ kind: 'message', message: m }));
      return { kind: 'reports', reports, customer: reports.length > 0 ? userPeerOf(message) : null };
    }
    case 'message_reply': {
      if (!object) return { kind: 'none' };
      return { kind: 'reports', reports: arrivalsOf(object, 'outbound').map((m): PlatformReport => ({ kind: 'message', message: m })), customer: null };
    }
    case 'message_edit': {
      const chatId = object ? userPeerOf(object) : null;
      const id = object ? messageIdOf(object) : null;
      if (!object || chatId === null || id === null || typeof object.text !== 'string') return { kind: 'none' };
      // The words are the message's own, or its file's caption: the one recorded with words changes (a file keeps its kind).
      const edits = [id, captionNumberOf(id)].map((number): PlatformReport => ({ kind: 'edit', edit: { chatType: 'vk', chatId, messengerMessageId: number, text: object.text as string } }));
      return { kind: 'reports', reports: edits, customer: null };
    }
    default:
      // message_allow and message_deny: VK itself refuses sends to a user who forbade them (901), which the send
      // reports as `chat_is_blocked`; nothing is recorded here.
      return { kind: 'none' };
  }
}
