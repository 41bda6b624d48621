import pg from 'pg';

/** More distinct statements than this per connection are run unnamed (texts that vary, like `in ($1, $2, …)`). */
const MAX_NAMED = 500;

/**
 * A connection that names each statement with parameters after its text, so PostgreSQL parses it once per
 * connection and, once it settles on a generic plan, stops planning it. The gateway sends the same few
 * statements over and over (the accept statement, the queue claims, the settlements), and parsing and
 * planning them cost more than running them. Statements without parameters keep the simple protocol, which
 * allows several statements in one text (migrations).
 *
 * A statement prepared before a migration changed the columns it returns fails once with "cached plan must
 * not change result type"; its name is then dropped, and the next call prepares it again.
 */
export class PreparingClient extends pg.Client {
  readonly #names = new Map<string, string>();
  #next = 0;

  override query(...args: unknown[]): never {
    const [config, values] = args;
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) {
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    let name = this.#names.get(config);
    if (name === undefined && this.#names.size < MAX_NAMED) {
      name = `gw_${(++this.#next).toString(36)}`;
      this.#names.set(config, name);
    }
    if (name === undefined) return (super.query as (...a: unknown[]) => never)(...args);
    const named = { name, text: config, values };
    const result = (super.query as (...a: unknown[]) => unknown)(named, ...args.slice(2)) as Promise<unknown> | undefined;
    // Callback-style calls return nothing; the pool and Kysely use promises.
    result?.catch((err: unknown) => {
      if ((err as { code?: string }).code === '0A000') this.#names.delete(config);
    });
    return result as never;
  }
}
