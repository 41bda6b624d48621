import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001_foundation.ts';

/** Migrations are listed here, in order, so they are bundled with the code rather than read from disk. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
