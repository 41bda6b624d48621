import pg from 'pg';
import { ReplanSchedule } from './replan-schedule.ts';

/** More distinct statements than this per connection are run unnamed (texts that vary, like `in ($1, $2, …)`). */
const MAX_NAMED = 500;

/**
 * A connection that names each statement with parameters after its text, so PostgreSQL parses it once per
 * connection and, once it settles on a generic plan, stops planning it. The gateway sends the same few
 * statements over and over (the accept statement, the queue claims, the settlements), and parsing and
 * planning them cost more than running them. Statements without parameters keep the simple protocol, which
 * allows several statements in one text (migrations).
 *
 * Each statement is prepared again from time to time (`ReplanSchedule`), so its plan follows the tables' growth.
 * The name it leaves behind is deallocated later, when the connection is next used outside a transaction:
 * a query queued behind another is deprecated in `pg`, and a deallocation that failed inside a caller's
 * transaction would abort it.
 *
 * A statement prepared before a migration changed the columns it returns fails once with "cached plan must
 * not change result type"; its name is then dropped, and the next call prepares it again.
 */
export class PreparingClient extends pg.Client {
  readonly #statements = new Map<string, { name: string | null; schedule: ReplanSchedule }>();
  /** Names of statements prepared anew since, still allocated on the server. */
  readonly #retired = new Set<string>();
  #next = 0;

  override query(...args: unknown[]): never {
    if (this.#retired.size > 0 && this.getTransactionStatus() === 'I') this.#deallocateRetired();
    const [config, values] = args;
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) {
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    let statement = this.#statements.get(config);
    if (statement === undefined && this.#statements.size < MAX_NAMED) {
      statement = { name: null, schedule: new ReplanSchedule() };
      this.#statements.set(config, statement);
    }
    if (statement === undefined) return (super.query as (...a: unknown[]) => never)(...args);
    const name = (statement.name ??= `gw_${(++this.#next).toString(36)}`);
    const named = { name, text: config, values };
    const result = (super.query as (...a: unknown[]) => unknown)(named, ...args.slice(2)) as Promise<unknown> | undefined;
    if (statement.schedule.ran()) this.#retire(statement);
    // Callback-style calls return nothing; the pool and Kysely use promises.
    result?.catch((err: unknown) => {
      if ((err as { code?: string }).code !== '0A000') return;
      this.#statements.delete(config);
      this.#retired.add(name);
    });
    return result as never;
  }

  /** The next run prepares the statement under a new name; the old one is dropped once the connection is idle. */
  #retire(statement: { name: string | null }): void {
    if (statement.name !== null) this.#retired.add(statement.name);
    statement.name = null;
  }

  /**
   * Sent first when the next query arrives outside a transaction, so it runs ahead of that query on an
   * otherwise idle connection. Only names the server has parsed are dropped (a run whose parse failed left
   * nothing), and the client forgets them either way: they are never used again.
   */
  #deallocateRetired(): void {
    const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    const names = [...this.#retired].filter((name) => parsed[name] !== undefined);
    for (const name of this.#retired) delete parsed[name];
    this.#retired.clear();
    if (names.length === 0) return;
    // Autocommit: a failure (the connection broke) costs nothing but leftovers that go with the connection.
    (super.query as (text: string) => Promise<unknown>)(names.map((name) => `deallocate ${name}`).join('; ')).catch(() => {});
  }
}
