import { randomUUID } from 'node:crypto';
import type { Account, IssuedToken, TokenInfo, TokenKind } from '../../../contract/accounts.ts';
import { endGrant, tokenGrant } from '../embedding/grants.ts';
import type { LiveSessions } from '../embedding/ports.ts';
import { AppError } from '../errors.ts';
import type { AccountRecord, Clock, Store, TokenRecord } from '../ports.ts';
import { mintToken } from './token-secret.ts';

export interface AccountDeps {
  store: Store;
  clock: Clock;
  /** Ends the live connections of frames whose sessions a revocation ended (absent on the command line). */
  live?: LiveSessions | undefined;
}

/** The account as the core keeps it; partners also get its public id (core/auth/account-profiles.ts). */
export type AccountCore = Pick<Account, 'account_id' | 'name'>;

const toAccount = (a: AccountRecord): AccountCore => ({ account_id: a.id, name: a.name });

const toTokenInfo = (t: TokenRecord): TokenInfo => ({
  token_id: t.id,
  kind: t.kind,
  name: t.name,
  created_at: t.createdAt.toISOString(),
  revoked_at: t.revokedAt ? t.revokedAt.toISOString() : null,
});

export async function createAccount({ store, clock }: AccountDeps, input: { name: string }): Promise<AccountCore> {
  const record: AccountRecord = { id: randomUUID(), name: input.name.trim(), createdAt: clock.now() };
  await store.accounts.insert(record);
  return toAccount(record);
}

export async function listAccounts({ store }: AccountDeps): Promise<AccountCore[]> {
  return (await store.accounts.list()).map(toAccount);
}

async function requireAccount(store: Store, accountId: string): Promise<AccountRecord> {
  const account = await store.accounts.get(accountId);
  if (!account) throw new AppError('ACCOUNT_NOT_FOUND', 'Account not found');
  return account;
}

export async function issueToken(
  { store, clock }: AccountDeps,
  accountId: string,
  input: { kind: TokenKind; name?: string | undefined },
): Promise<IssuedToken> {
  await requireAccount(store, accountId);
  const minted = mintToken();
  const record: TokenRecord = {
    id: minted.id,
    accountId,
    kind: input.kind,
    name: input.name ?? null,
    secretHash: minted.secretHash,
    createdAt: clock.now(),
    revokedAt: null,
  };
  await store.tokens.insert(record);
  return { token_id: record.id, kind: record.kind, name: record.name, token: minted.token };
}

export async function listTokens({ store }: AccountDeps, accountId: string): Promise<TokenInfo[]> {
  await requireAccount(store, accountId);
  return (await store.tokens.listByAccount(accountId)).map(toTokenInfo);
}

/** Revokes the token, and ends what it minted: frame sessions opened from its links, and its links not used yet. */
export async function revokeToken(deps: AccountDeps, accountId: string, tokenId: string): Promise<void> {
  await requireAccount(deps.store, accountId);
  const revoked = await deps.store.tokens.revoke(accountId, tokenId, deps.clock.now());
  if (!revoked) throw new AppError('TOKEN_NOT_FOUND', 'Token not found');
  await endGrant(deps, tokenGrant(tokenId));
}
