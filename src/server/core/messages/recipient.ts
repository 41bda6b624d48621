import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { TransportCapabilities } from '../../../contract/channels.ts';
import type { FieldError } from '../../../contract/errors.ts';
import type { Recipient } from '../../../contract/messages.ts';
import { validationError } from '../errors.ts';

/**
 * Numbers already judged. A CRM writes to the same customers again and again, and parsing a number against
 * the metadata costs more than every other check of a send together; the answer never changes. Forgotten all
 * at once when full, which is cheaper than keeping an order and loses little.
 */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 10_000;

/** Digits of an international number with a country code that exists and a plausible length. */
export function isInternationalNumber(digits: string): boolean {
  if (!/^\d{7,15}$/.test(digits)) return false;
  let possible = judged.get(digits);
  if (possible === undefined) {
    possible = parsePhoneNumberFromString(`+${digits}`)?.isPossible() === true;
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(digits, possible);
  }
  return possible;
}

const NAME = /^[A-Za-z0-9_.]{2,64}$/;
const INSTAGRAM = /^[A-Za-z0-9._]{1,30}$/;
const byNameOrPhone = new Set(['telegram', 'max']);
const byNumber = new Set(['whatsapp', 'viber']);

/**
 * A chat id as the gateway keeps it: an Instagram account name in lower case, as Instagram shows names and compares
 * them (`Anna.K` and `anna.k` are one account, and one chat); any other id as it is.
 */
export const chatIdAsKept = (chatType: Recipient['chat_type'], chatId: string): string => (chatType === 'instagram' ? chatId.toLowerCase() : chatId);

export interface CheckedRecipient {
  chatType: Recipient['chat_type'];
  chatId: string | null;
  username: string | null;
  phone: string | null;
  name: string | null;
}

/** Rules a request breaks by its own look (docs/decisions.md "Messages"); what only the messenger knows fails later. */
export function checkRecipient(capabilities: TransportCapabilities, recipient: Recipient): CheckedRecipient {
  const fields: FieldError[] = [];
  const problem = (field: string, message: string) => fields.push({ field: `recipient.${field}`, message });
  const { chat_type: chatType, chat_id: chatId, username, phone } = recipient;

  if (!capabilities.chat_types.includes(chatType)) {
    problem('chat_type', `is not a chat type of ${capabilities.transport} channels (${capabilities.chat_types.join(', ')})`);
  }
  if ((username !== undefined || phone !== undefined) && !byNameOrPhone.has(chatType)) {
    problem(username !== undefined ? 'username' : 'phone', 'is only for telegram and max chats');
  }
  if (chatId === undefined && username === undefined && phone === undefined) {
    problem('chat_id', byNameOrPhone.has(chatType) ? 'is required unless username or phone is given' : 'is required');
  }
  if (chatId !== undefined) {
    if (byNumber.has(chatType) && !isInternationalNumber(chatId)) {
      problem('chat_id', 'must be an international number: digits only, no plus, with a valid country code');
    } else if (chatType === 'instagram' && !INSTAGRAM.test(chatId)) {
      problem('chat_id', chatId.startsWith('@') ? 'must not start with @' : 'is not an instagram account name');
    }
  }
  if (username !== undefined && !NAME.test(username)) problem('username', username.startsWith('@') ? 'must not start with @' : 'is not a user name');
  if (phone !== undefined && !isInternationalNumber(phone)) {
    problem('phone', 'must be an international number: digits only, no plus, with a valid country code');
  }
  if (fields.length > 0) throw validationError(fields);
  return { chatType, chatId: chatId === undefined ? null : chatIdAsKept(chatType, chatId), username: username ?? null, phone: phone ?? null, name: recipient.crm_contact_name ?? null };
}
