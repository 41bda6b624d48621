export interface CrmUserRecord {
  id: string;
  name: string;
  /** Digits of an international number; null when the user has none. Absent in a change: the phone stays. */
  phone?: string | null | undefined;
}

/** CRM users of each account, by the CRM's own ids. */
export interface CrmUserRepository {
  /** Inserts new ids, renames existing ones; a phone given here is taken from whichever other user held it. */
  upsert(accountId: string, users: CrmUserRecord[], at: Date): Promise<void>;
  getMany(accountId: string, ids: string[]): Promise<CrmUserRecord[]>;
  /** In id order, after `after` when given. */
  list(accountId: string, page: { after?: string | undefined; limit: number }): Promise<CrmUserRecord[]>;
  remove(accountId: string, ids: string[]): Promise<void>;
}
