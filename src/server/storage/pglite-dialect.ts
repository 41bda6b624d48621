import type { PGlite, Transaction } from '@electric-sql/pglite';
import { queryPrepared } from './pglite-prepared.ts';
import type {
  CompiledQuery} from 'kysely';
import {
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely over an embedded PGlite. PGlite is one connection; its own `transaction()` holds an exclusive
 * lock that every other `query()` waits for — including pg-boss's, which shares the instance. So a Kysely
 * transaction is mapped onto a PGlite transaction, and nothing else can slip a statement into it.
 */
export class PGliteDialect implements Dialect {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.#pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class RollbackSignal extends Error {}

interface OpenTransaction {
  tx: Transaction;
  finish: (outcome: 'commit' | 'rollback') => void;
  done: Promise<void>;
}

class PGliteConnection implements DatabaseConnection {
  readonly pglite: PGlite;
  open: OpenTransaction | null = null;

  constructor(pglite: PGlite) {
    this.pglite = pglite;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const target = this.open ? this.open.tx : this.pglite;
    // Statements with parameters are the ones sent again and again: prepared once, then only executed.
    const prepared = compiled.parameters.length > 0 ? queryPrepared<R>(this.pglite, compiled.sql, compiled.parameters, this.open !== null) : null;
    const result = await (prepared ?? target.query<R>(compiled.sql, [...compiled.parameters]));
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // PGlite materialises results; streaming yields the whole result once. Large reads page by keyset instead.
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(compiled);
  }
}

class PGliteDriver implements Driver {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  async init(): Promise<void> {
    await this.#pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.#pglite);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as PGliteConnection;
    let finish!: (outcome: 'commit' | 'rollback') => void;
    const outcome = new Promise<'commit' | 'rollback'>((resolve) => (finish = resolve));
    let started!: (tx: Transaction) => void;
    const txReady = new Promise<Transaction>((resolve) => (started = resolve));
    const done = conn.pglite
      .transaction(async (tx) => {
        started(tx);
        if ((await outcome) === 'rollback') throw new RollbackSignal();
      })
      .then(() => undefined);
    // BEGIN itself can fail; surface that instead of waiting forever for the callback.
    const tx = await Promise.race([txReady, done.then(() => Promise.reject(new Error('transaction ended before it began')))]);
    conn.open = { tx, finish, done };
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as PGliteConnection;
    const open = conn.open;
    conn.open = null;
    if (!open) return;
    open.finish('commit');
    await open.done;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as PGliteConnection;
    const open = conn.open;
    conn.open = null;
    if (!open) return;
    open.finish('rollback');
    await open.done.catch((err: unknown) => {
      if (!(err instanceof RollbackSignal)) throw err;
    });
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}
