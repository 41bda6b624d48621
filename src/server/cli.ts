/**
 * Operator commands on the gateway's database (the same configuration as the server):
 *   npm run accounts -- create --name Acme            an account and its first client token
 *   npm run accounts -- list                          the accounts
 *   npm run accounts -- token --account <id> [--kind client|sidecar] [--name <label>]
 *   npm run accounts -- tokens --account <id>         the account's tokens (no secrets)
 *   npm run accounts -- revoke --account <id> --token <token_id>
 * Output is JSON on stdout; errors go to stderr with a non-zero exit code.
 */
import { parseArgs } from 'node:util';
import { createAccount, issueToken, listAccounts, listTokens, revokeToken, type AccountDeps } from './core/accounts/accounts.ts';
import { AppError } from './core/errors.ts';
import { systemClock } from './core/ports.ts';
import { ConfigError, loadConfig } from './config.ts';
import { databaseTargetOf } from './gateway.ts';
import { migrateToLatest, openDatabase } from './storage/database.ts';
import { createStore } from './storage/store.ts';

const usage = `usage: npm run accounts -- <create --name N | list | token --account ID [--kind client|sidecar] [--name N] | tokens --account ID | revoke --account ID --token TOKEN_ID>`;

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`missing --${flag}`);
  return value;
}

async function run(command: string | undefined, flags: Record<string, string | undefined>, deps: AccountDeps): Promise<unknown> {
  switch (command) {
    case 'create': {
      const account = await createAccount(deps, { name: required(flags.name, 'name') });
      const token = await issueToken(deps, account.account_id, { kind: 'client', name: 'cli' });
      return { ...account, token_id: token.token_id, token: token.token };
    }
    case 'list':
      return listAccounts(deps);
    case 'token': {
      const kind = flags.kind ?? 'client';
      if (kind !== 'client' && kind !== 'sidecar') throw new UsageError('--kind must be client or sidecar');
      return issueToken(deps, required(flags.account, 'account'), { kind, name: flags.name });
    }
    case 'tokens':
      return listTokens(deps, required(flags.account, 'account'));
    case 'revoke':
      await revokeToken(deps, required(flags.account, 'account'), required(flags.token, 'token'));
      return { revoked: flags.token };
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, account: { type: 'string' }, kind: { type: 'string' }, token: { type: 'string' } },
  });
  const config = loadConfig();
  const database = await openDatabase(databaseTargetOf(config));
  try {
    await migrateToLatest(database.db);
    const store = createStore(database.db, () => {
      throw new Error('background jobs are not available from the command line');
    }, { singleConnection: database.pglite !== null });
    const result = await run(positionals[0], values, { store, clock: systemClock });
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
