import type { ChatRepository } from './ports.ts';

/**
 * One WhatsApp customer, two ways of writing their number. WhatsApp names a customer by their WhatsApp id (`wa_id`),
 * fixed when the account was made, while a CRM writes the number as it is dialled today; in two countries the two
 * may differ by a digit for the same phone:
 *
 * - Brazil added a 9 in front of every mobile number (2012–2016): `55 DD 9 NNNN NNNN` is dialled today, and an
 *   account made before may still be `55 DD NNNN NNNN`. Only mobiles: the old eight digits began with 6–9 (a landline
 *   begins with 2–5, and gets no 9), and area codes have no 0.
 * - Mexico dropped the 1 that mobile numbers took after the country code (2019–2020): `52 1 NNNNNNNNNN` and
 *   `52 NNNNNNNNNN` are one phone. No Mexican area code begins with 0 or 1, so the 1 is never part of the number.
 *
 * These are the only rewrites applied, and only to find a chat that exists already: nothing else is taken for the
 * same person (Argentina's 9 after 54, say, marks a mobile among numbers of the same form as landlines, so only
 * Meta can say who is behind it: the driver remembers what Meta answered, see the peer directory).
 */

/** The other way of writing the same mobile number, where there is one; null for every other number. */
export function otherFormOf(digits: string): string | null {
  let m = /^55([1-9]{2})9([6-9]\d{7})$/.exec(digits);
  if (m) return `55${m[1]}${m[2]}`;
  m = /^55([1-9]{2})([6-9]\d{7})$/.exec(digits);
  if (m) return `55${m[1]}9${m[2]}`;
  m = /^521([2-9]\d{9})$/.exec(digits);
  if (m) return `52${m[1]}`;
  m = /^52([2-9]\d{9})$/.exec(digits);
  if (m) return `521${m[1]}`;
  return null;
}

/**
 * The id of the whatsapp chat of a channel a number goes to: the number as written when its chat exists, or when it
 * has no other form; else its other form when that one's chat exists (the customer wrote first, from the WhatsApp id
 * of the form before); else the number as written, for a new chat.
 */
export async function whatsappChatIdOf(chats: Pick<ChatRepository, 'findByMessengerId'>, channelId: string, digits: string): Promise<string> {
  const other = otherFormOf(digits);
  if (other === null || (await chats.findByMessengerId(channelId, 'whatsapp', digits))) return digits;
  return (await chats.findByMessengerId(channelId, 'whatsapp', other)) ? other : digits;
}
