import { CompiledQuery, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
import type { DatabaseSchema } from '../schema.ts';

/** Where a fixed statement's value goes; `fixedStatement` hands one to its builder per parameter. */
export class Slot {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

/**
 * A statement whose text is the same on every call, built and compiled by Kysely once rather than on every
 * call. `build` receives one `Slot` per parameter it declares and uses each where a value goes (`${slot}` in a
 * `sql` template, or through `jsonRows`/`anyUuid`); every call then sends the compiled text with its own
 * values, in the builder's parameter order. On the hot paths (the accept statement, the send queue's claims
 * and settlements, the token and channel lookups, the stream read) building and compiling cost the gateway
 * more than handing the statement to the connection, and the texts never change.
 *
 * The builder may put no other value into the statement: compiling one would freeze it into every call, so
 * that throws.
 */
export function fixedStatement<R>(build: (...slots: Slot[]) => RawBuilder<R>): (db: Kysely<DatabaseSchema>, ...values: unknown[]) => Promise<QueryResult<R>> {
  let compiled: { sql: string; order: number[] } | null = null;
  return (db, ...values) => {
    if (values.length !== build.length) throw new Error(`this statement takes ${build.length} values, not ${values.length}`);
    if (compiled === null) {
      const once = build(...values.map((_, i) => new Slot(i))).compile(db);
      const order = once.parameters.map((p) => {
        if (!(p instanceof Slot)) throw new Error('a fixed statement may hold no value but its slots');
        return p.index;
      });
      compiled = { sql: once.sql, order };
    }
    return db.executeQuery(CompiledQuery.raw(compiled.sql, compiled.order.map((i) => values[i]))) as Promise<QueryResult<R>>;
  };
}
