import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseTarget } from '../storage/database.ts';

export interface TestDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards), so one suite runs on both.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { target: { kind: 'pglite', dataDir: null }, drop: async () => {} };
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // Connections a closed pool is still ending (pg-boss's listener) go away by themselves within
        // moments; terminating them instead surfaces as an error in a client nobody listens to any more.
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name}${attempt >= 40 ? ' WITH (FORCE)' : ''}`);
            return;
          } catch (err) {
            if ((err as { code?: string }).code !== '55006' || attempt >= 40) throw err;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

export const databaseKind = (): 'postgres' | 'pglite' => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
