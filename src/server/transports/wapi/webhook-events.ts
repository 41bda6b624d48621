import type { Attachment } from '../../../contract/messages.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { statusFailureOf } from './cloud-failures.ts';
import { isMetaId } from './account.ts';

/**
 * What Meta posts of a number's conversations (a `messages` change of a `whatsapp_business_account` entry), as the
 * gateway reads it. Documented (Cloud API "Webhooks: messages"): `value.metadata.phone_number_id` names the number;
 * `contacts[]` the customers (`wa_id`, `profile.name`); `messages[]` what they sent (`from`, `id`, `type`, `text.body`,
 * `image`/`video`/`audio`/`document`/`sticker` with a media `id`, `mime_type`, `caption`, a document's `filename`;
 * `interactive.button_reply`/`list_reply` with the pressed `id` and `title`; `button` with the `text` and `payload` of
 * a template's quick-reply button; `context.id`, the message answered, or the one whose button was pressed);
 * `statuses[]` the reports on the number's sends (`id`, `status`: sent, delivered, read, failed, `recipient_id`,
 * `errors[]`). Location, contacts, reactions, orders, system and unsupported messages are not read.
 */

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
/** A wamid goes into no URL, but is kept: a sane length, and no `:` (which marks a message's parts here). */
const isWamid = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 256 && !x.includes(':');
const isWaId = (x: unknown): x is string => typeof x === 'string' && /^\d{5,20}$/.test(x);
const words = (x: unknown): string | null => (typeof x === 'string' && x.length > 0 ? x : null);

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/** The gateway's link to a customer's media of the number (Meta's media need the business token to download). */
export type MediaLink = (mediaId: string) => string;

/** A customer's media as an attachment behind the gateway's link, with the type and name Meta gives. */
function mediaOf(message: Record<string, unknown>, link: MediaLink): { attachment: Attachment; caption: string | null } | null {
  const kind = MEDIA_KINDS.find((k) => k === message.type);
  const media = kind && isObject(message[kind]) ? (message[kind] as Record<string, unknown>) : null;
  if (!media || !isMetaId(media.id)) return null;
  const mimetype = typeof media.mime_type === 'string' && /^[\w.+-]+\/[\w.+-]+/.test(media.mime_type) ? media.mime_type.split(';')[0]!.trim() : null;
  const name = typeof media.filename === 'string' && media.filename.length > 0 ? media.filename.slice(0, 256) : null;
  return { attachment: { url: link(media.id), ...(name ? { name } : {}), ...(mimetype ? { mimetype } : {}) }, caption: words(media.caption) };
}

/** The words a press of a button stands for: an interactive reply's title, or a template quick reply's text. */
function pressedOf(message: Record<string, unknown>): string | null {
  if (message.type === 'interactive' && isObject(message.interactive)) {
    const reply = message.interactive.button_reply ?? message.interactive.list_reply;
    if (isObject(reply)) return words(reply.title) ?? words(reply.id);
  }
  if (message.type === 'button' && isObject(message.button)) return words(message.button.text) ?? words(message.button.payload);
  return null;
}

/**
 * The customer's messages of one change, each as the gateway records it: a file a message of its own (`<wamid>`),
 * its caption the words after it (`<wamid>:text`), as Instagram's are; a press of a button the pressed button's words,
 * quoting the message it was on.
 */
function arrivalsOf(value: Record<string, unknown>, link: MediaLink): ArrivingMessage[] {
  const names = new Map<string, string>();
  for (const contact of Array.isArray(value.contacts) ? value.contacts : []) {
    if (isObject(contact) && isWaId(contact.wa_id) && isObject(contact.profile) && typeof contact.profile.name === 'string') names.set(contact.wa_id, contact.profile.name);
  }
  const found: ArrivingMessage[] = [];
  for (const message of Array.isArray(value.messages) ? value.messages : []) {
    if (!isObject(message) || !isWaId(message.from) || !isWamid(message.id)) continue;
    const context = isObject(message.context) && isWamid(message.context.id) ? message.context.id : null;
    const common = {
      chatType: 'whatsapp' as const,
      chatId: message.from,
      username: null,
      phone: null,
      name: names.get(message.from) ?? null,
      direction: 'inbound' as const,
      ...(context ? { quotedMessengerId: context } : {}),
    };
    const text = message.type === 'text' && isObject(message.text) ? words(message.text.body) : pressedOf(message);
    if (text !== null) {
      found.push({ ...common, text, attachment: null, messengerMessageId: message.id });
      continue;
    }
    const media = mediaOf(message, link);
    if (!media) continue;
    found.push({ ...common, text: null, attachment: media.attachment, messengerMessageId: message.id });
    if (media.caption !== null) found.push({ ...common, text: media.caption, attachment: null, messengerMessageId: `${message.id}:text` });
  }
  return found;
}

/** Meta's reports on the number's sends; `sent` is what the send's answer recorded already, and is not read. */
function statusesOf(value: Record<string, unknown>): PlatformReport[] {
  const found: PlatformReport[] = [];
  for (const status of Array.isArray(value.statuses) ? value.statuses : []) {
    if (!isObject(status) || !isWamid(status.id) || !isWaId(status.recipient_id)) continue;
    if (status.status !== 'delivered' && status.status !== 'read' && status.status !== 'failed') continue;
    const reason = status.status === 'failed' ? statusFailureOf(status.errors) : null;
    found.push({ kind: 'status', status: { chatType: 'whatsapp', chatId: status.recipient_id, messengerMessageId: status.id, status: status.status, reason } });
  }
  return found;
}

/** The number a `messages` change is for (its channel's `messenger_id`); null when it names none. */
export function numberOfChange(value: unknown): string | null {
  return isObject(value) && isObject(value.metadata) && isMetaId(value.metadata.phone_number_id) ? value.metadata.phone_number_id : null;
}

/** What a `messages` change says, in Meta's order: the customers' messages, then the reports on the number's sends. */
export function reportsOfChange(value: unknown, link: MediaLink): PlatformReport[] {
  if (!isObject(value)) return [];
  return [...arrivalsOf(value, link).map((message): PlatformReport => ({ kind: 'message', message })), ...statusesOf(value)];
}
