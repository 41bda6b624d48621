import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAccount, issueToken } from '../core/accounts/accounts.ts';
import type { Clock, Store } from '../core/ports.ts';

export interface DemoAccount {
  account_id: string;
  name: string;
  token: string;
}

/**
 * On an empty demo database: one account and a client token, so the gateway can be tried at once.
 * The token is kept in the data directory (owner-only) so a restart can show it again; production
 * mode never does this.
 */
export async function ensureDemoAccount(deps: { store: Store; clock: Clock }, dataDir: string): Promise<DemoAccount | null> {
  const path = join(dataDir, 'demo-account.json');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as DemoAccount;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if ((await deps.store.accounts.count()) > 0) return null;
  // On PostgreSQL with its keys given in the environment, nothing else has made the data directory.
  await mkdir(dataDir, { recursive: true });
  const account = await createAccount(deps, { name: 'Demo' });
  const token = await issueToken(deps, account.account_id, { kind: 'client', name: 'demo' });
  const demo: DemoAccount = { account_id: account.account_id, name: account.name, token: token.token };
  await writeFile(path, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}
