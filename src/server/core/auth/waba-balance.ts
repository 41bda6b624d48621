import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import type { Caller } from './grants.ts';
import { partnerAccount } from './partner-accounts.ts';
import type { AuthRepository } from './ports.ts';

type Deps = { store: Store; auth: AuthRepository; clock: Clock };

/** `POST /v2/accounts/{account_id}/waba-balance`: adds `value` (in the account's currency) to what pays for conversations. */
export async function topUpWabaBalance(deps: Deps, caller: Caller, ref: string, value: number): Promise<void> {
  const account = await partnerAccount(deps.auth, caller, ref);
  await deps.auth.waba.topUp({ id: randomUUID(), accountId: account.accountId, channelId: null, kind: 'top_up', amount: value, chatId: null, createdAt: deps.clock.now() });
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** What a business-API channel paid on one UTC day. */
export async function wabaTransactions(deps: Deps, accountId: string, channelId: string, day: string) {
  const channel = await deps.store.channels.get(accountId, channelId);
  if (!channel || channel.transport !== 'wapi') throw new AppError('CHANNEL_NOT_FOUND', 'No business API channel with this id');
  const m = DAY.exec(day);
  const from = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!from || from.toISOString().slice(0, 10) !== day) throw new AppError('VALIDATION_ERROR', 'The date must be YYYY-MM-DD', { fields: [{ field: 'date', message: 'must be YYYY-MM-DD' }] });
  const to = new Date(from.getTime() + 86_400_000);
  const rows = await deps.auth.waba.transactions(channelId, from, to);
  const transactions = rows.map((t) => ({ transaction_id: t.id, kind: t.kind, amount: t.amount, chat_id: t.chatId, created_at: t.createdAt.toISOString() }));
  return { transactions, count: transactions.length };
}
