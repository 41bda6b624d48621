import type { Account, PublicAccount } from '../../../contract/accounts.ts';
import { createAccount } from '../accounts/accounts.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import { legacyState } from '../channels/state-machine.ts';
import type { Caller } from './grants.ts';
import { partnerAccount } from './partner-accounts.ts';
import type { AccountProfile, AuthRepository } from './ports.ts';

type Deps = { store: Store; auth: AuthRepository; clock: Clock };

export interface AccountInput {
  name: string;
  lang?: string | undefined;
  currency?: string | undefined;
  country?: string | undefined;
  timezone?: number | undefined;
}

const publicOf = (a: { publicId: number; name: string }): PublicAccount => ({ account_id: a.publicId, name: a.name });

/**
 * A child account of the calling partner. The answer carries `account: {account_id, name}` with the 8-digit id partners
 * use, and the account's UUID at the top level as before.
 */
export async function createPartnerAccount(deps: Deps, caller: Caller, input: AccountInput): Promise<Account> {
  // The service asks for 3 characters; the partner key's own API has always taken shorter names.
  if (caller.partnerId !== null && input.name.trim().length < 3) {
    throw new AppError('VALIDATION_ERROR', 'The name must be at least 3 characters', { fields: [{ field: 'name', message: 'must be at least 3 characters' }] });
  }
  const created = await createAccount(deps, { name: input.name });
  const publicId = await deps.auth.accounts.describe(created.account_id, {
    partnerId: caller.partnerId,
    lang: input.lang ?? null,
    currency: input.currency ?? null,
    country: input.country ?? null,
    timezone: input.timezone ?? null,
  });
  return { ...created, account: publicOf({ publicId, name: created.name }) };
}

export async function listPartnerAccounts(auth: AuthRepository, caller: Caller): Promise<Account[]> {
  return (await auth.accounts.list(caller.partnerId)).map((a) => ({ account_id: a.accountId, name: a.name, account: publicOf(a) }));
}

export type Expansion = 'billing' | 'channels' | 'subscriptions';

/** `GET /v2/accounts/{account_id}`: the account, and what `expand` asks for besides. */
export async function describeAccount(deps: Deps & { plan: string }, caller: Caller, ref: string, expand: readonly Expansion[]) {
  const a: AccountProfile = await partnerAccount(deps.auth, caller, ref);
  const channels = expand.includes('channels') || expand.includes('subscriptions') ? await deps.store.channels.list(a.accountId) : [];
  return {
    account: {
      ...publicOf(a),
      lang: a.lang,
      currency: a.currency,
      country: a.country,
      timezone: a.timezone,
      created_at: a.createdAt.toISOString(),
      ...(expand.includes('billing') ? { billing: { currency: a.currency, waba_balance: a.wabaBalance } } : {}),
      ...(expand.includes('channels')
        ? { channels: channels.map((c) => ({ channel_id: c.id, transport: c.transport, state: legacyState(c.state), name: c.name, phone: c.phone })) }
        : {}),
      // The gateway's tariffs are per channel: one subscription each.
      ...(expand.includes('subscriptions') ? { subscriptions: channels.map((c) => ({ channel_id: c.id, transport: c.transport, plan: deps.plan, paid: c.paid })) } : {}),
    },
  };
}
