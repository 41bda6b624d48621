import { CrmContact, type ContactHandle, type StoredContact } from '../../../contract/crm-entities.ts';
import type { FieldError } from '../../../contract/errors.ts';
import { checkedItems, lastById } from '../deals/entity-input.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import { contactKeyOf } from './contacts.ts';
import type { ContactRecord } from './ports.ts';

export interface ContactCardDeps {
  store: Store;
  clock: Clock;
}

/** A handle as stored: one identifier, usernames without @ and lower case, phones as digits. */
function normalHandle(h: ContactHandle): ContactHandle {
  const out: ContactHandle = { chat_type: h.chat_type };
  if (h.chat_id !== undefined) out.chat_id = h.chat_id.trim();
  if (h.username !== undefined) out.username = h.username.trim().replace(/^@/, '').toLowerCase();
  if (h.phone !== undefined) out.phone = h.phone.replace(/\D/g, '');
  return out;
}

/** The names the chat list shows come from contacts too: each handle names its chat. */
function namesOf(contacts: StoredContact[]): ContactRecord[] {
  return contacts.flatMap((c) =>
    c.contact_data.flatMap((h) => {
      const key = contactKeyOf(h.chat_id !== undefined ? { chat_type: h.chat_type, chat_id: h.chat_id } : h);
      return 'problem' in key ? [] : [{ ...key, name: c.name.trim() }];
    }),
  );
}

/**
 * `{contacts: […]}`: upserted by id, at most 100, each with its chat handles (`contact_data`). A handle needs
 * `chat_id`, or for telegram and max `username` or `phone`; bad data answers INVALID_CONTACT_DATA.
 */
export async function upsertContactCards({ store, clock }: ContactCardDeps, accountId: string, items: unknown): Promise<StoredContact[]> {
  const contacts = checkedItems<CrmContact>(CrmContact, items, 'contacts', 'INVALID_CONTACT_DATA', 'contact');
  const problems: FieldError[] = [];
  contacts.forEach((c, i) =>
    c.contact_data.forEach((h, j) => {
      const given = (['chat_id', 'username', 'phone'] as const).filter((k) => h[k] !== undefined);
      if (given.length === 0) problems.push({ field: `contacts.${i}.contact_data.${j}`, message: 'needs chat_id, username or phone' });
      else if (!given.includes('chat_id') && h.chat_type !== 'telegram' && h.chat_type !== 'max') {
        problems.push({ field: `contacts.${i}.contact_data.${j}`, message: 'username and phone name only telegram and max chats; use chat_id' });
      }
    }),
  );
  if (problems.length > 0) throw new AppError('INVALID_CONTACT_DATA', 'Invalid contact data', { fields: problems });
  const stored = lastById(
    contacts.map((c) => ({
      id: c.id,
      responsible_user_id: c.responsible_user_id ?? null,
      name: c.name.trim(),
      contact_data: c.contact_data.map(normalHandle),
      uri: c.uri ?? null,
    })),
  );
  const now = clock.now();
  await store.transaction(async (tx) => {
    await tx.contactCards.upsert(accountId, stored, now);
    await tx.contacts.upsert(accountId, dedupeNames(namesOf(stored)), now);
  });
  return stored;
}

const dedupeNames = (names: ContactRecord[]) => [...new Map(names.map((n) => [`${n.chatType}:${n.kind}:${n.value}`, n])).values()];

export async function getContactCard({ store }: ContactCardDeps, accountId: string, id: string): Promise<StoredContact> {
  const [found] = await store.contactCards.getMany(accountId, [id]);
  if (!found) throw new AppError('CONTACT_NOT_FOUND', 'Contact not found');
  return found;
}

export const listContactCards = ({ store }: ContactCardDeps, accountId: string, page: { offset?: number | undefined; limit?: number | undefined }) =>
  store.contactCards.list(accountId, { offset: page.offset ?? 0, limit: page.limit ?? 100 });

/** Deleting unknown ids is not an error. The names its handles gave chats go with the contact. */
export async function deleteContactCards({ store }: ContactCardDeps, accountId: string, ids: string[]): Promise<void> {
  await store.transaction(async (tx) => {
    const gone = await tx.contactCards.getMany(accountId, ids);
    await tx.contactCards.remove(accountId, ids);
    await tx.contacts.remove(accountId, namesOf(gone));
  });
}

/** The contact a chat belongs to: the one owning a handle of the chat, most recently changed first. */
export async function contactOfChat(
  store: Pick<Store, 'contactCards'>,
  accountId: string,
  chat: { chatType: ContactHandle['chat_type']; chatId: string | null; username: string | null; phone: string | null },
): Promise<StoredContact | null> {
  const handle: ContactHandle = { chat_type: chat.chatType };
  if (chat.chatId) handle.chat_id = chat.chatId;
  if (chat.username) handle.username = chat.username.replace(/^@/, '').toLowerCase();
  if (chat.phone) handle.phone = chat.phone;
  const [found] = await store.contactCards.findByHandle(accountId, handle);
  return found ?? null;
}
