import type { ChatRecord } from '../messages/ports.ts';
import type { TransactionScope } from '../ports.ts';

/**
 * A new customer (the first message of a chat, from the customer) goes to one of the users allowed to get new
 * customers of the channel (`allow_get_new_clients`), the one given the fewest so far (ties by id), so they are
 * spread evenly. Nobody gets it where no one is allowed.
 */
export async function assignNewCustomer(tx: Pick<TransactionScope, 'rights'>, chat: Pick<ChatRecord, 'id' | 'accountId' | 'channelId'>, at: Date): Promise<string | null> {
  const roles = await tx.rights.roles(chat.accountId);
  const allowed = [...new Set(roles.filter((r) => r.channelId === chat.channelId && r.allowGetNewClients).map((r) => r.userId))].sort();
  if (allowed.length === 0) return null;
  const counts = await tx.rights.assignedCounts(chat.accountId, allowed);
  const chosen = allowed.reduce((best, user) => ((counts.get(user) ?? 0) < (counts.get(best) ?? 0) ? user : best));
  await tx.rights.assign(chat.accountId, chat.id, chosen, at);
  return chosen;
}
