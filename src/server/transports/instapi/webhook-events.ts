import type { Attachment } from '../../../contract/messages.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import type { MessengerPeer } from '../../core/messages/peers.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { typeByName } from '../bot-common.ts';

/**
 * What Meta posts of an Instagram account's conversations (`entry[].messaging[]` of an `instagram` object), as the
 * gateway reads it. Each event names the customer by their Instagram-scoped id (IGSID): the sender of what the
 * customer does, the recipient of the account's own messages (`is_echo`). Documented (Meta's "Webhooks for Instagram
 * Messaging" and its examples): `message` with `mid`, `text`, `attachments[]` (`type`, `payload.url`), `reply_to`
 * (`mid`, or `story`), `is_echo`, `is_deleted` (the customer unsent it), `is_unsupported`; `read` with `mid`
 * (messaging_seen); `reaction`; `postback` (`mid`, `title`, `payload`: an icebreaker or a button); `referral`.
 * Inferred: `message_edit` (`mid`, `text`, `num_edit`) as the Messenger Platform documents it for Messenger, should
 * Meta post it for Instagram.
 */

/** What a customer or the account did, before the customer is named as their chat is. */
export type Happening =
  | { kind: 'message'; peerId: string; echo: boolean; mid: string; text: string | null; files: Attachment[]; quotedMid: string | null }
  | { kind: 'edit'; peerId: string; mid: string; text: string; at: Date | null }
  | { kind: 'delete'; peerId: string; mid: string }
  | { kind: 'read'; peerId: string; mid: string };

/** Meta's ids are digits; anything else is not read (it would go into a URL's path). */
export const isMetaId = (x: unknown): x is string => typeof x === 'string' && /^\d{1,30}$/.test(x);
const isMid = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 512 && !x.includes(':');
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const MAX_URL = 4096;

/** Media a customer sends, and what they share from Instagram (a post, a reel, a story they mention the account in). */
const FILE_KINDS = new Set(['image', 'video', 'audio', 'file']);
const SHARED_KINDS = new Set(['share', 'story_mention', 'ig_reel', 'reel', 'ig_post']);

const typesByExtension: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['mp4', 'video/mp4'],
  ['mov', 'video/quicktime'],
  ['webm', 'video/webm'],
  ['m4a', 'audio/mp4'],
  ['aac', 'audio/aac'],
  ['wav', 'audio/wav'],
  ['mp3', 'audio/mpeg'],
  ['ogg', 'audio/ogg'],
  ['pdf', 'application/pdf'],
]);

/** The last segment of a URL's path, as a file's name when it has an extension. */
function nameIn(url: string): string | null {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '');
    return /\.[A-Za-z0-9]{1,5}$/.test(last) && last.length <= 256 ? last : null;
  } catch {
    return null;
  }
}

/**
 * A customer's file or shared post as an attachment: Meta's CDN address (lookaside.fbsbx.com, cdninstagram.com…),
 * handed on as it is. It holds no token, but Meta signs it with an expiry: it stops working after a while (a
 * story's with the story), and the gateway keeps no copy. The type is told by the address's file name, when it has
 * one. Stickers, GIFs and kinds not listed are not read.
 */
export function attachmentOf(found: unknown): Attachment | null {
  if (!isObject(found) || typeof found.type !== 'string' || !(FILE_KINDS.has(found.type) || SHARED_KINDS.has(found.type))) return null;
  const url = isObject(found.payload) ? found.payload.url : undefined;
  if (typeof url !== 'string' || url.length > MAX_URL || !/^https?:\/\//i.test(url)) return null;
  const name = nameIn(url);
  const mimetype = typeByName(name, typesByExtension);
  return { url, ...(name ? { name } : {}), ...(mimetype ? { mimetype } : {}) };
}

/** Meta sends one attachment as an object rather than an array of one, now and then. */
const listOf = (x: unknown): unknown[] => (Array.isArray(x) ? x : x === undefined || x === null ? [] : [x]);

/**
 * The happenings of one entry of the account `accountId`, in Meta's order. An event that names neither side as the
 * account, or is malformed, is not read; nor are reactions, referrals, and messages Instagram cannot show
 * (`is_unsupported`). A press of an icebreaker or a button (`postback`) is the customer's message of its title.
 */
export function happeningsOf(accountId: string, events: unknown): Happening[] {
  const found: Happening[] = [];
  for (const event of Array.isArray(events) ? events : []) {
    if (!isObject(event) || !isObject(event.sender) || !isObject(event.recipient)) continue;
    const sender = event.sender.id;
    const recipient = event.recipient.id;
    const fromAccount = sender === accountId;
    const peerId = fromAccount ? recipient : sender;
    if (!isMetaId(peerId) || (!fromAccount && recipient !== accountId) || peerId === accountId) continue;
    const at = typeof event.timestamp === 'number' && Number.isFinite(event.timestamp) && event.timestamp > 0 ? new Date(event.timestamp) : null;
    const message = isObject(event.message) ? event.message : null;
    if (message && isMid(message.mid)) {
      const echo = message.is_echo === true;
      if (echo !== fromAccount || message.is_unsupported === true) continue;
      if (message.is_deleted === true) {
        found.push({ kind: 'delete', peerId, mid: message.mid });
        continue;
      }
      const text = typeof message.text === 'string' && message.text.length > 0 ? message.text : null;
      const files = listOf(message.attachments).flatMap((a) => attachmentOf(a) ?? []);
      const replyTo = isObject(message.reply_to) ? message.reply_to : null;
      const quotedMid = replyTo && isMid(replyTo.mid) ? replyTo.mid : null;
      if (text !== null || files.length > 0) found.push({ kind: 'message', peerId, echo, mid: message.mid, text, files, quotedMid });
      continue;
    }
    if (isObject(event.message_edit) && isMid(event.message_edit.mid) && typeof event.message_edit.text === 'string') {
      found.push({ kind: 'edit', peerId, mid: event.message_edit.mid, text: event.message_edit.text, at });
      continue;
    }
    if (isObject(event.read) && isMid(event.read.mid) && !fromAccount) {
      found.push({ kind: 'read', peerId, mid: event.read.mid });
      continue;
    }
    const postback = isObject(event.postback) ? event.postback : null;
    if (postback && !fromAccount) {
      const words = [postback.title, postback.payload].find((w): w is string => typeof w === 'string' && w.trim().length > 0);
      const mid = isMid(postback.mid) ? postback.mid : at ? `pb.${at.getTime()}.${peerId}` : null;
      if (words && mid) found.push({ kind: 'message', peerId, echo: false, mid, text: words, files: [], quotedMid: null });
    }
  }
  return found;
}

/**
 * A message as the gateway records it: each file a message of its own (`<mid>`, `<mid>:1`…), then the words
 * (`<mid>:text`, or `<mid>` alone without files), as MAX's are. The chat is the person's (`handle`).
 */
function messagesOf(happening: Extract<Happening, { kind: 'message' }>, person: MessengerPeer & { handle: string }): ArrivingMessage[] {
  const chat = { chatType: 'instagram' as const, chatId: person.handle, username: null, phone: null, name: person.name };
  const common = {
    ...chat,
    direction: happening.echo ? ('outbound' as const) : ('inbound' as const),
    ...(happening.quotedMid ? { quotedMessengerId: happening.quotedMid } : {}),
    ...(happening.echo ? { echo: true } : {}),
  };
  const files = happening.files.map((attachment, i) => ({ ...common, text: null, attachment, messengerMessageId: i === 0 ? happening.mid : `${happening.mid}:${i}` }));
  const words = happening.text === null ? [] : [{ ...common, text: happening.text, attachment: null, messengerMessageId: files.length > 0 ? `${happening.mid}:text` : happening.mid }];
  return [...files, ...words];
}

/**
 * The reports of an entry's happenings, each in the chat of its person as `people` names them (by IGSID); what
 * happened with a person not named there (never recorded, and nothing to record) is left out. An edit names both
 * the message and its words apart (`<mid>:text`): the one recorded with words changes.
 */
export function reportsOf(happenings: readonly Happening[], people: ReadonlyMap<string, MessengerPeer>): PlatformReport[] {
  return happenings.flatMap((h): PlatformReport[] => {
    const person = people.get(h.peerId);
    if (!person?.handle) return [];
    const where = { chatType: 'instagram' as const, chatId: person.handle };
    switch (h.kind) {
      case 'message':
        return messagesOf(h, { ...person, handle: person.handle }).map((message) => ({ kind: 'message', message }));
      case 'edit': {
        const edit = { ...where, text: h.text, ...(h.at ? { editedAt: h.at } : {}) };
        return [
          { kind: 'edit', edit: { ...edit, messengerMessageId: h.mid } },
          { kind: 'edit', edit: { ...edit, messengerMessageId: `${h.mid}:text` } },
        ];
      }
      case 'delete':
        return [{ kind: 'delete', delete: { ...where, messengerMessageId: h.mid } }];
      case 'read':
        return [{ kind: 'read', read: { ...where, messengerMessageId: h.mid } }];
    }
  });
}
