import type { CrmUser } from '../../../contract/users.ts';
import { assertEntityCount } from '../entity-limit.ts';
import type { Clock, Store } from '../ports.ts';

export interface UserDeps {
  store: Store;
  clock: Clock;
}

/** The last entry wins when one id is given twice in a call. */
const lastById = (users: CrmUser[]) => [...new Map(users.map((u) => [u.id, { id: u.id, name: u.name.trim() }])).values()];

export async function upsertUsers({ store, clock }: UserDeps, accountId: string, users: CrmUser[]): Promise<CrmUser[]> {
  assertEntityCount(users.length);
  const unique = lastById(users);
  await store.crmUsers.upsert(accountId, unique, clock.now());
  return unique;
}

export async function listUsers(
  { store }: UserDeps,
  accountId: string,
  query: { id?: string[] | undefined; after?: string | undefined; limit?: number | undefined },
): Promise<CrmUser[]> {
  if (query.id) {
    assertEntityCount(query.id.length);
    const found = await store.crmUsers.getMany(accountId, [...new Set(query.id)]);
    return found.sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  return store.crmUsers.list(accountId, { after: query.after, limit: query.limit ?? 100 });
}

/** Deleting an unknown id is not an error: the CRM may repeat a deletion. */
export async function deleteUsers({ store }: UserDeps, accountId: string, ids: string[]): Promise<void> {
  assertEntityCount(ids.length);
  await store.crmUsers.remove(accountId, [...new Set(ids)]);
}
