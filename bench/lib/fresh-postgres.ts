/**
 * A new, empty database on the PostgreSQL server named by `serverUrl`, for one benchmark: every run starts
 * from the same state, whatever earlier runs and tests left on the server (rows, and the dead row versions
 * a server with autovacuum off keeps forever), as PGlite does in its temporary directory.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function freshPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gw_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}
