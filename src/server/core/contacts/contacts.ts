import type { ChatType } from '../../../contract/channels.ts';
import type { Contact, ContactKey, ListedContact } from '../../../contract/contacts.ts';
import type { FieldError } from '../../../contract/errors.ts';
import { assertEntityCount } from '../entity-limit.ts';
import { validationError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import type { ContactKeyRecord, ContactRecord } from './ports.ts';

export interface ContactDeps {
  store: Store;
  clock: Clock;
}

/** Chat types whose chats may also be named by username or phone (as in a message's recipient). */
const BY_USERNAME_OR_PHONE: ReadonlySet<ChatType> = new Set(['telegram', 'max']);
const KINDS = ['chat_id', 'username', 'phone'] as const;

/** The key of a contact, or what is wrong with it: exactly one identifier, username and phone only where allowed. */
export function contactKeyOf(key: ContactKey): ContactKeyRecord | { problem: string } {
  const given = KINDS.filter((k) => key[k] !== undefined);
  if (given.length !== 1) return { problem: 'exactly one of chat_id, username, phone is required' };
  const kind = given[0]!;
  if (kind !== 'chat_id' && !BY_USERNAME_OR_PHONE.has(key.chat_type)) {
    return { problem: `${kind} is allowed only for telegram and max; use chat_id` };
  }
  const raw = key[kind]!.trim();
  return { chatType: key.chat_type, kind, value: kind === 'username' ? raw.toLowerCase() : raw };
}

function keysOf<T extends ContactKey>(items: T[]): { key: ContactKeyRecord; item: T }[] {
  const problems: FieldError[] = [];
  const keyed: { key: ContactKeyRecord; item: T }[] = [];
  items.forEach((item, i) => {
    const key = contactKeyOf(item);
    if ('problem' in key) problems.push({ field: `data.${i}`, message: key.problem });
    else keyed.push({ key, item });
  });
  if (problems.length > 0) throw validationError(problems);
  return keyed;
}

const identity = (k: ContactKeyRecord) => `${k.chatType}:${k.kind}:${k.value}`;

export const contactCursor = identity;

export function parseContactCursor(cursor: string): ContactKeyRecord | null {
  const [chatType, kind, ...rest] = cursor.split(':');
  if (!chatType || !kind || rest.length === 0 || !(KINDS as readonly string[]).includes(kind)) return null;
  return { chatType: chatType as ChatType, kind: kind as ContactKeyRecord['kind'], value: rest.join(':') };
}

export function toContact(r: ContactRecord): ListedContact {
  return { chat_type: r.chatType, [r.kind]: r.value, name: r.name, cursor: identity(r) } as ListedContact;
}

export async function upsertContacts({ store, clock }: ContactDeps, accountId: string, contacts: Contact[]): Promise<ListedContact[]> {
  assertEntityCount(contacts.length);
  const unique = new Map<string, ContactRecord>();
  for (const { key, item } of keysOf(contacts)) unique.set(identity(key), { ...key, name: item.name.trim() });
  const records = [...unique.values()];
  await store.contacts.upsert(accountId, records, clock.now());
  return records.map(toContact);
}

export async function listContacts(
  { store }: ContactDeps,
  accountId: string,
  query: { chat_type?: ChatType | undefined; after?: string | undefined; limit?: number | undefined },
): Promise<ListedContact[]> {
  const after = query.after === undefined ? undefined : parseContactCursor(query.after);
  if (after === null) throw validationError([{ field: 'querystring.after', message: 'is not a contact cursor' }]);
  const rows = await store.contacts.list(accountId, { chatType: query.chat_type, after, limit: query.limit ?? 100 });
  return rows.map(toContact);
}

export async function deleteContacts({ store }: ContactDeps, accountId: string, keys: ContactKey[]): Promise<void> {
  assertEntityCount(keys.length);
  await store.contacts.remove(accountId, keysOf(keys).map((k) => k.key));
}
