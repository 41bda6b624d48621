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
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    // BENCH_DATABASE_SETTINGS="log_min_duration_statement=0 …": settings of the new database, say to log each
    // statement's time while looking into where the server's time goes.
    for (const setting of process.env.BENCH_DATABASE_SETTINGS?.split(' ').filter(Boolean) ?? []) {
      const [key, value] = setting.split('=');
      await admin.query(`ALTER DATABASE ${name} SET ${key} = '${value}'`);
    }
  } finally {
    await admin.end();
  }
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
