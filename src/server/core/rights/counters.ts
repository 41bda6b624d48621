import type { UnansweredCounter } from '../../../contract/settings.ts';
import type { Store } from '../ports.ts';
import { rightsOf } from './visibility.ts';

/**
 * The chats waiting for an answer that a user can see (the channels of their roles; all while the account sets no
 * role). `red` when one of them is a customer the user was given, or, with no roles set, when any waits (everyone
 * answers everything then); `grey` when only others' customers wait, or none.
 */
export async function unansweredCounter(deps: { store: Store }, accountId: string, userId: string): Promise<UnansweredCounter> {
  const { counter, type } = await unansweredSummary(deps, accountId, userId);
  return { counter, type };
}

/** The counter with the time of the latest message among the waiting chats (null when none waits). */
export async function unansweredSummary(
  { store }: { store: Store },
  accountId: string,
  userId: string,
): Promise<UnansweredCounter & { lastMessageAt: Date | null }> {
  const rights = await rightsOf(store, accountId, userId);
  const waiting = await store.rights.waitingChats(accountId, rights.channels === null ? null : [...rights.channels]);
  const mine = rights.channels === null ? waiting.length > 0 : waiting.some((c) => c.assignee === userId);
  const latest = waiting.reduce<Date | null>((at, c) => (c.lastMessageAt && (!at || c.lastMessageAt > at) ? c.lastMessageAt : at), null);
  return { counter: waiting.length, type: mine ? 'red' : 'grey', lastMessageAt: latest };
}

/** Marks every chat of the account answered. */
export async function clearUnanswered({ store }: { store: Store }, accountId: string): Promise<{ account_id: string; cleared: true }> {
  await store.rights.clearUnanswered(accountId);
  return { account_id: accountId, cleared: true };
}
