/**
 * Operator commands on the gateway's database (the same configuration as the server):
 *   npm run accounts -- create --name Acme            an account and its first client token
 *   npm run accounts -- list                          the accounts
 *   npm run accounts -- token --account <id> [--kind client|sidecar] [--name <label>]
 *   npm run accounts -- tokens --account <id>         the account's tokens (no secrets)
 *   npm run accounts -- revoke --account <id> --token <token_id>
 *   npm run accounts -- partner --login <login> --secret <secret>      a partner's Basic login (or a new secret for it)
 *   npm run accounts -- client --name <name> --redirect-uri <uri> [--redirect-uri <uri>…] [--login <partner login>]
 *                                                     an OAuth client (of that partner, or of the partner key)
 *   npm run accounts -- owner --account <id> --email <email> --password <password>
 *                                                     the account owner's sign-in for the authorization page
 * Output is JSON on stdout; errors go to stderr with a non-zero exit code.
 */
import { parseArgs } from 'node:util';
import { issueToken, listTokens, revokeToken, type AccountDeps } from './core/accounts/accounts.ts';
import { createPartnerAccount, listPartnerAccounts } from './core/auth/account-profiles.ts';
import { registerClient } from './core/auth/clients.ts';
import { setAccountOwner } from './core/auth/owners.ts';
import { setPartnerCredentials } from './core/auth/partners.ts';
import type { AuthRepository } from './core/auth/ports.ts';
import { partnerAccount } from './core/auth/partner-accounts.ts';
import { authRepository } from './storage/repositories/account-profiles.ts';
import { AppError } from './core/errors.ts';
import { systemClock } from './core/ports.ts';
import { ConfigError, loadConfig } from './config.ts';
import { databaseTargetOf } from './gateway.ts';
import { migrateToLatest, openDatabase } from './storage/database.ts';
import { createStore } from './storage/store.ts';

const usage =
  'usage: npm run accounts -- <create --name N | list | token --account ID [--kind client|sidecar] [--name N] | tokens --account ID | ' +
  'revoke --account ID --token TOKEN_ID | partner --login L --secret S | client --name N --redirect-uri URI… [--login L] | ' +
  'owner --account ID --email E --password P>';

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

type Flags = { [flag: string]: string | string[] | undefined; 'redirect-uri'?: string[] | undefined } & Partial<Record<'name' | 'account' | 'kind' | 'token' | 'login' | 'secret' | 'email' | 'password', string>>;

/** The operator acts with the partner key's reach: every account. */
const operator = { partnerId: null };

async function run(command: string | undefined, flags: Flags, deps: AccountDeps & { auth: AuthRepository }): Promise<unknown> {
  const accountId = async () => (await partnerAccount(deps.auth, operator, required(flags.account, 'account'))).accountId;
  switch (command) {
    case 'create': {
      const account = await createPartnerAccount(deps, operator, { name: required(flags.name, 'name') });
      const token = await issueToken(deps, account.account_id, { kind: 'client', name: 'cli' });
      return { ...account, token_id: token.token_id, token: token.token };
    }
    case 'partner':
      return setPartnerCredentials(deps, required(flags.login, 'login'), required(flags.secret, 'secret'));
    case 'client': {
      const login = flags.login;
      const partner = login ? await deps.auth.partners.byLogin(login) : undefined;
      if (login && !partner) throw new UsageError(`no partner with the login "${login}"`);
      const uris = flags['redirect-uri'] ?? [];
      if (uris.length === 0) throw new UsageError('missing --redirect-uri');
      return registerClient(deps, { partnerId: partner?.id ?? null }, { name: required(flags.name, 'name'), redirect_uris: uris });
    }
    case 'owner':
      return setAccountOwner(deps, operator, required(flags.account, 'account'), { email: required(flags.email, 'email'), password: required(flags.password, 'password') });
    case 'list':
      return listPartnerAccounts(deps.auth, operator);
    case 'token': {
      const kind = flags.kind ?? 'client';
      if (kind !== 'client' && kind !== 'sidecar') throw new UsageError('--kind must be client or sidecar');
      return issueToken(deps, await accountId(), { kind, name: flags.name });
    }
    case 'tokens':
      return listTokens(deps, await accountId());
    case 'revoke':
      await revokeToken(deps, await accountId(), required(flags.token, 'token'));
      return { revoked: flags.token };
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      kind: { type: 'string' },
      token: { type: 'string' },
      login: { type: 'string' },
      secret: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
    },
  });
  const config = loadConfig();
  const database = await openDatabase(databaseTargetOf(config));
  try {
    await migrateToLatest(database.db);
    const store = createStore(database.db, () => {
      throw new Error('background jobs are not available from the command line');
    }, { singleConnection: database.pglite !== null });
    const result = await run(positionals[0], values, { store, clock: systemClock, auth: authRepository(database.db) });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  if (err instanceof UsageError) console.error(`${err.message}\n${usage}`);
  else if (err instanceof AppError) console.error(`${err.code}: ${err.message}`);
  else if (err instanceof ConfigError) console.error(err.message);
  else console.error(err instanceof Error ? err.message : err);
  process.exitCode = err instanceof UsageError ? 64 : 1;
}
