import type { ContactHandle, StoredContact } from '../../../contract/crm-entities.ts';
import type { ChatType } from '../../../contract/channels.ts';

/** How a contact is keyed: its chat type and one identifier. */
export interface ContactKeyRecord {
  chatType: ChatType;
  kind: 'chat_id' | 'username' | 'phone';
  value: string;
}

export interface ContactRecord extends ContactKeyRecord {
  name: string;
}

/** Contact names of each account, as the CRM knows them. */
export interface ContactRepository {
  upsert(accountId: string, contacts: ContactRecord[], at: Date): Promise<void>;
  find(accountId: string, keys: ContactKeyRecord[]): Promise<ContactRecord[]>;
  /** In key order, after `after` when given. */
  list(accountId: string, page: { chatType?: ChatType | undefined; after?: ContactKeyRecord | undefined; limit: number }): Promise<ContactRecord[]>;
  remove(accountId: string, keys: ContactKeyRecord[]): Promise<void>;
}

/** The CRM's contacts, each owning several chat handles (`contact_data`). */
export interface ContactCardRepository {
  upsert(accountId: string, contacts: StoredContact[], at: Date): Promise<void>;
  getMany(accountId: string, ids: string[]): Promise<StoredContact[]>;
  /** How many the account has (the v3 face's pages say it). */
  count(accountId: string): Promise<number>;
  /** In id order. */
  list(accountId: string, page: { offset: number; limit: number }): Promise<StoredContact[]>;
  remove(accountId: string, ids: string[]): Promise<void>;
  /** The contacts owning a chat handle like this one (same chat type and chat id, username or phone). */
  findByHandle(accountId: string, handle: ContactHandle): Promise<StoredContact[]>;
}
