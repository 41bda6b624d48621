import { Value } from 'typebox/value';
import { CrmUser, ServiceUser, type ListedUser } from '../../../contract/users.ts';
import type { FieldError } from '../../../contract/errors.ts';
import { assertEntityCount } from '../entity-limit.ts';
import { AppError, validationError } from '../errors.ts';
import { isInternationalNumber } from '../messages/recipient.ts';
import type { Clock, Store } from '../ports.ts';
import type { CrmUserRecord } from './ports.ts';

export interface UserDeps {
  store: Store;
  clock: Clock;
}

/** The last entry wins when one id is given twice in a call. */
const lastById = <T extends { id: string }>(users: T[]) => [...new Map(users.map((u) => [u.id, u])).values()];

const listed = (u: CrmUserRecord): ListedUser => (u.phone ? { id: u.id, name: u.name, phone: u.phone } : { id: u.id, name: u.name });

/** Digits of a valid international number, or null: a phone the CRM got wrong is dropped, the user kept. */
export function userPhone(raw: string): string | null {
  const digits = raw.replace(/[\s()+.-]/g, '');
  return isInternationalNumber(digits) ? digits : null;
}

function problemsOf(schema: typeof CrmUser | typeof ServiceUser, items: unknown[], field: string): FieldError[] {
  return items.flatMap((item, i) => [...Value.Errors(schema, item)].map((e) => ({ field: `${field}.${i}${e.instancePath.replace(/\//g, '.')}`, message: e.message })));
}

/** The earlier shape, `{data: [{id, name}]}`: refused as any body that fails its schema, answered with the users. */
export async function upsertUsers({ store, clock }: UserDeps, accountId: string, users: unknown[]): Promise<ListedUser[]> {
  assertEntityCount(users.length);
  const problems = problemsOf(CrmUser, users, 'data');
  if (users.length === 0) problems.push({ field: 'data', message: 'must not be empty' });
  if (problems.length > 0) throw validationError(problems);
  const unique = lastById((users as CrmUser[]).map((u) => ({ id: u.id, name: u.name.trim() })));
  await store.crmUsers.upsert(accountId, unique, clock.now());
  return unique.map(listed);
}

/**
 * The service's shape, `{users: [{id, name, phone}]}`: upserted by id, a phone kept by one user only (two users
 * of one call with the same phone are bad data), an invalid phone dropped. Answers how many users were processed.
 */
export async function processUsers({ store, clock }: UserDeps, accountId: string, users: unknown[]): Promise<{ processed: number }> {
  assertEntityCount(users.length);
  const problems = problemsOf(ServiceUser, users, 'users');
  if (users.length === 0) problems.push({ field: 'users', message: 'must not be empty' });
  for (const [i, u] of users.entries()) {
    if (problems.length === 0 && (u as ServiceUser).name.trim() === '') problems.push({ field: `users.${i}.name`, message: 'must not be blank' });
  }
  if (problems.length > 0) throw new AppError('INVALID_USER_DATA', 'Invalid user data', { fields: problems });
  const unique = lastById(
    (users as ServiceUser[]).map((u) => ({ id: u.id, name: u.name.trim(), ...(u.phone === undefined ? {} : { phone: userPhone(u.phone) }) })),
  );
  const holders = new Map<string, string>();
  for (const u of unique) {
    if (!u.phone) continue;
    const other = holders.get(u.phone);
    if (other !== undefined) throw new AppError('INVALID_USER_DATA', 'Two users may not share a phone', { fields: [{ field: 'users', message: `${other} and ${u.id} share a phone` }] });
    holders.set(u.phone, u.id);
  }
  await store.transaction((tx) => tx.crmUsers.upsert(accountId, unique, clock.now()));
  return { processed: unique.length };
}

export async function listUsers(
  { store }: UserDeps,
  accountId: string,
  query: { id?: string[] | undefined; after?: string | undefined; limit?: number | undefined },
): Promise<ListedUser[]> {
  if (query.id) {
    assertEntityCount(query.id.length);
    const found = await store.crmUsers.getMany(accountId, [...new Set(query.id)]);
    return found.sort((a, b) => (a.id < b.id ? -1 : 1)).map(listed);
  }
  return (await store.crmUsers.list(accountId, { after: query.after, limit: query.limit ?? 100 })).map(listed);
}

export async function getUser({ store }: UserDeps, accountId: string, id: string): Promise<ListedUser> {
  const [user] = await store.crmUsers.getMany(accountId, [id]);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found');
  return listed(user);
}

/** Ids to delete however the CRM lists them: `{users}`, `{data}`, `{ids}` or a bare array, of ids or `{id}`. */
export function idsToDelete(body: unknown): string[] {
  const list = Array.isArray(body) ? body : ['users', 'data', 'ids'].map((k) => (body as Record<string, unknown> | null)?.[k]).find(Array.isArray);
  if (!Array.isArray(list) || list.length === 0) throw validationError([{ field: 'users', message: 'must list the ids to delete' }]);
  assertEntityCount(list.length);
  const ids = list.map((item: unknown) => (typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : item));
  const bad = ids.findIndex((id) => typeof id !== 'string' || id === '' || id.length > 128);
  if (bad >= 0) throw validationError([{ field: `users.${bad}`, message: 'must be an id or {id}' }]);
  return ids as string[];
}

/** Deleting an unknown id is not an error: the CRM may repeat a deletion. */
export async function deleteUsers({ store }: UserDeps, accountId: string, ids: string[]): Promise<void> {
  assertEntityCount(ids.length);
  await store.crmUsers.remove(accountId, [...new Set(ids)]);
}
