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
 *
 * A statement prepared before a migration changed the columns it returns fails once with "cached plan must
 * not change result type"; its name is then dropped, and the next call prepares it again.
 */
export class PreparingClient extends pg.Client {
  readonly #statements = new Map<string, { name: string | null; schedule: ReplanSchedule }>();
  #next = 0;

  override query(...args: unknown[]): never {
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
      if ((err as { code?: string }).code === '0A000') this.#statements.delete(config);
    });
    return result as never;
  }

  /** The next run prepares the statement under a new name; the old one is dropped after this run. */
  #retire(statement: { name: string | null }): void {
    const old = statement.name;
    if (old === null) return;
    statement.name = null;
    // Queued behind the run just sent. The client remembers which names it has parsed; a dropped name must
    // not stay among them. In a transaction that failed meanwhile the deallocation fails too, and leaves the
    // old statement allocated on the connection until it closes: a leftover, not an error for anybody.
    (super.query as (text: string) => Promise<unknown>)(`deallocate ${old}`)
      .then(() => delete (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[old])
      .catch(() => {});
  }
}
