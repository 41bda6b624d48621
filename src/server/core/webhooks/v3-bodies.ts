import type { FailureReason } from '../../../contract/messages.ts';
import type {
  V3ChannelUpdate,
  V3CreateContact,
  V3CreateDeal,
  V3TemplateStatus,
  V3WebhookBody,
  V3WebhookMessage,
  V3WebhookStatus,
} from '../../../contract/v3/webhooks.ts';
import { v3ChatTypes } from '../../../contract/v3/webhooks.ts';
import type { ClaimedItem } from './ports.ts';

/**
 * What a v3 body needs beyond an event's payload (v2's payloads stay as they are): where an edited or deleted message
 * is, a template's name, a user's name. Read when the body is made; what they return does not change afterwards, so a
 * retry carries the body it had.
 */
export interface V3Lookups {
  message(accountId: string, messageId: string): Promise<{ channelId: string; chatType: string; chatId: string | null; chatName: string | null; direction: 'inbound' | 'outbound' } | null>;
  templateName(accountId: string, templateId: string): Promise<string | null>;
  userName(accountId: string, userId: string): Promise<string | null>;
}

type Payload = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Payload | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Payload) : undefined);
const iso = (ms: number) => new Date(ms).toISOString();
const isV3ChatType = (t: string | undefined): t is V3WebhookMessage['chatType'] => t !== undefined && (v3ChatTypes as readonly string[]).includes(t);

/** Our lower-snake failure reasons in the v3 webhook's codes; a reason it has no word for goes upper-cased. */
const errorCodes: Partial<Record<FailureReason, string>> = {
  bad_contact: 'BAD_CONTACT',
  text_length_is_too_much: 'TOO_LONG_TEXT',
  is_spam: 'SPAM',
  to_many_requests: 'TOO_MANY_EXT_REQS',
  bad_content: 'WRONG_CONTENT',
  canceled: 'MESSAGE_CANCELLED',
  over_24_hour_limit: '24_HOURS_EXCEEDED',
  unknown_error: 'UNKNOWN_ERROR',
  channel_blocked: 'CHANNEL_BLOCKED',
  message_channel_unavailable: 'MESSAGE_CHANNEL_UNAVAILABLE',
  messages_invalid_contact_type: 'MESSAGES_INVALID_CONTACT_TYPE',
  messages_not_text_first: 'MESSAGES_NOT_TEXT_FIRST',
  can_not_get_content: 'CONTENT_CONVERSION_ERROR',
};

export function v3ErrorOf(reason: unknown): { error: string; description: string } {
  const r = str(reason) ?? 'unknown_error';
  const code = errorCodes[r as FailureReason] ?? r.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return { error: code, description: r.replace(/_/g, ' ') };
}

/** Our message status as v3 spells it: `failed` is `error`; `accepted` (not yet sent) has no v3 word. */
function v3Status(status: unknown): 'sent' | 'delivered' | 'read' | 'error' | null {
  if (status === 'sent' || status === 'delivered' || status === 'read') return status;
  if (status === 'failed') return 'error';
  return null;
}

/** What kind of message v3 says it is, from what it carries. */
function typeOf(p: Payload): V3WebhookMessage['type'] {
  if (obj(p.template)) return 'wapi_template';
  const attachment = obj(p.attachment);
  if (!attachment) return 'text';
  const mime = str(attachment.mimetype) ?? '';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'text/vcard' || mime === 'text/x-vcard') return 'vcard';
  return 'document';
}

/** `message.add`: a new message, the customer's (`isEcho: false`) or the account's (`isEcho: true`). */
async function addedMessage(accountId: string, p: Payload, lookups: V3Lookups): Promise<V3WebhookMessage | null> {
  const recipient = obj(p.recipient) ?? {};
  const chatType = str(recipient.chat_type);
  const chatId = str(recipient.chat_id);
  const messageId = str(p.message_id);
  const channelId = str(p.channel_id);
  if (!isV3ChatType(chatType) || !chatId || !messageId || !channelId) return null;
  const echo = p.direction === 'outbound';
  const status = echo ? (v3Status(p.status) ?? 'sent') : 'inbound';
  const authorId = str(p.crm_user_id);
  const authorName = echo && authorId ? await lookups.userName(accountId, authorId) : null;
  const text = str(p.text) ?? str(obj(p.template)?.text);
  const contentUri = str(obj(p.attachment)?.url);
  const quoted = str(p.quoted_message_id);
  const username = str(recipient.username);
  const phone = str(recipient.phone);
  return {
    messageId,
    channelId,
    chatType,
    chatId,
    dateTime: iso(Number(p.timestamp)),
    type: typeOf(p),
    isEcho: echo,
    contact: {
      name: str(recipient.name) ?? chatId,
      ...(username && (chatType === 'telegram' || chatType === 'max') ? { username } : {}),
      ...(phone && (chatType === 'telegram' || chatType === 'max') ? { phone } : {}),
    },
    ...(text !== undefined ? { text } : {}),
    ...(contentUri ? { contentUri } : {}),
    status,
    ...(status === 'error' ? { error: v3ErrorOf(p.reason) } : {}),
    ...(echo && authorName ? { authorName } : {}),
    ...(authorId ? { authorId } : {}),
    ...(quoted ? { quotedMessage: { messageId: quoted } } : {}),
    ...(echo ? { sentFromApp: authorId !== undefined } : {}),
  };
}

/**
 * `message.edit` / `message.delete`: the message again, `isEdited` or `isDeleted`, with what it said before in
 * `oldInfo`, whoever made the change (the gateway's events do not tell an edit made on the phone from one made
 * through the API, so v3's `statuses` item `edited` is not used).
 */
async function changedMessage(accountId: string, p: Payload, createdAt: Date, deleted: boolean, lookups: V3Lookups): Promise<V3WebhookMessage | null> {
  const messageId = str(p.message_id);
  if (!messageId) return null;
  const where = await lookups.message(accountId, messageId);
  if (!where || !isV3ChatType(where.chatType) || !where.chatId) return null;
  const authorId = str(p.crm_user_id);
  const oldText = typeof p.old_text === 'string' ? p.old_text : undefined;
  const oldContentUri = str(obj(p.old_attachment)?.url);
  const text = typeof p.text === 'string' ? p.text : undefined;
  const contentUri = str(obj(p.attachment)?.url);
  const echo = where.direction === 'outbound';
  return {
    messageId,
    channelId: where.channelId,
    chatType: where.chatType,
    chatId: where.chatId,
    dateTime: iso(typeof p.timestamp === 'number' ? p.timestamp : createdAt.getTime()),
    type: contentUri || oldContentUri ? typeOf({ attachment: obj(p.attachment) ?? obj(p.old_attachment) }) : 'text',
    isEcho: echo,
    contact: { name: where.chatName ?? where.chatId },
    ...(text !== undefined ? { text } : {}),
    ...(contentUri ? { contentUri } : {}),
    status: echo ? 'sent' : 'inbound',
    ...(authorId ? { authorId } : {}),
    ...(deleted ? { isDeleted: true } : { isEdited: true }),
    ...(oldText !== undefined || oldContentUri ? { oldInfo: { ...(oldText !== undefined ? { oldText } : {}), ...(oldContentUri ? { oldContentUri } : {}) } } : {}),
  };
}

function statusItem(p: Payload, createdAt: Date): V3WebhookStatus | null {
  const messageId = str(p.message_id);
  const status = v3Status(p.status);
  if (!messageId || !status) return null;
  return { messageId, timestamp: iso(createdAt.getTime()), status, ...(status === 'error' ? { error: v3ErrorOf(p.reason) } : {}) };
}

/** Our channel status and reason in the `channelsUpdates` set; a channel starting up (init) has no word there. */
function channelUpdate(name: string, p: Payload, createdAt: Date): V3ChannelUpdate | null {
  const channelId = str(p.channel_id);
  if (!channelId) return null;
  const timestamp = createdAt.getTime();
  if (name === 'channel.qr_update') {
    const qr = str(p.qr_code);
    return { channelId, state: 'qr', timestamp, ...(qr?.startsWith('data:image/png;base64,') ? { qr } : {}) };
  }
  if (name === 'channel.waba_tier_update') return { channelId, state: 'active', timestamp, tier: String(p.tier) };
  if (p.status === 'active') return { channelId, state: 'active', timestamp };
  if (p.status === 'init') return p.reason === 'qr' ? { channelId, state: 'qr', timestamp } : null;
  switch (p.reason) {
    case 'qridle':
      return { channelId, state: 'qr', timestamp, qridle: true };
    case 'openelsewhere':
      return { channelId, state: 'openElsewhere', timestamp };
    case 'not_enough_money':
      return { channelId, state: 'notEnoughMoney', timestamp };
    case 'unauthorized':
      return { channelId, state: 'unauthorized', timestamp };
    default:
      return { channelId, state: 'disabled', timestamp };
  }
}

async function templateStatus(accountId: string, p: Payload, lookups: V3Lookups): Promise<V3TemplateStatus | null> {
  const templateGuid = str(p.template_id);
  const status = str(p.status)?.toLowerCase();
  if (!templateGuid || !status) return null;
  const name = (await lookups.templateName(accountId, templateGuid)) ?? '';
  return { templateGuid, name, status: status as V3TemplateStatus['status'] };
}

/** `crm_entities.contact_add` / `deal_add`: the CRM is asked to create the entity and answer it. */
function createContact(p: Payload): V3CreateContact | null {
  const chatType = str(p.chat_type);
  const chatId = str(p.chat_id);
  const user = str(p.user_id);
  if (!isV3ChatType(chatType) || !chatId || !user) return null;
  const username = str(p.username);
  const phone = str(p.phone);
  return {
    responsibleUserId: user,
    name: str(p.name) ?? chatId,
    contactData: [{ chatType, chatId, ...(username ? { username } : {}), ...(phone ? { phone } : {}) }],
    source: p.source === 'auto' ? 'auto' : 'byUser',
  };
}

function createDeal(p: Payload): V3CreateDeal | null {
  const user = str(p.user_id);
  const contact = str(p.contact_id);
  if (!user || !contact) return null;
  return { responsibleUserId: user, contacts: [contact], source: p.source === 'auto' ? 'auto' : 'byUser' };
}

const compact = <T>(list: (T | null)[]): T[] => list.filter((x): x is T => x !== null);

/**
 * The v3 body of one claimed delivery (v3 subscriptions never batch, so it holds one event), or null when v3 has
 * nothing to say of it (a message still `accepted`, a channel starting up, a chat type v3 does not know): the
 * delivery is then settled without a POST.
 */
export async function v3BodyOf(accountId: string, eventName: string, items: readonly ClaimedItem[], lookups: V3Lookups): Promise<V3WebhookBody | null> {
  const payloads = items.map((i) => ({ p: obj(i.payload) ?? {}, at: i.createdAt }));
  switch (eventName) {
    case 'message.add': {
      const messages = compact(await Promise.all(payloads.map(({ p }) => addedMessage(accountId, p, lookups))));
      return messages.length > 0 ? { messages } : null;
    }
    case 'message.edit':
    case 'message.delete': {
      const deleted = eventName === 'message.delete';
      const messages = compact(await Promise.all(payloads.map(({ p, at }) => changedMessage(accountId, p, at, deleted, lookups))));
      return messages.length > 0 ? { messages } : null;
    }
    case 'message.status_update': {
      const statuses = compact(payloads.map(({ p, at }) => statusItem(p, at)));
      return statuses.length > 0 ? { statuses } : null;
    }
    case 'channel.status_update':
    case 'channel.qr_update':
    case 'channel.waba_tier_update': {
      const channelsUpdates = compact(payloads.map(({ p, at }) => channelUpdate(eventName, p, at)));
      return channelsUpdates.length > 0 ? { channelsUpdates } : null;
    }
    case 'waba_template.status_update': {
      const status = payloads[0] ? await templateStatus(accountId, payloads[0].p, lookups) : null;
      return status ? { templateStatus: status } : null;
    }
    case 'crm_entities.contact_add': {
      const contact = payloads[0] ? createContact(payloads[0].p) : null;
      return contact ? { createContact: contact } : null;
    }
    case 'crm_entities.deal_add': {
      const deal = payloads[0] ? createDeal(payloads[0].p) : null;
      return deal ? { createDeal: deal } : null;
    }
    default:
      return null;
  }
}
