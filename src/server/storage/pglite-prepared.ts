import { parse, protocol, type messages, type PGlite, type Results } from '@electric-sql/pglite';
import { ReplanSchedule } from './replan-schedule.ts';

/**
 * Statements with parameters, prepared once per embedded database and then only bound and executed.
 *
 * PGlite's own `query()` parses, describes, plans and runs a statement on every call, in six passes through
 * the engine. The gateway sends the same few statements over and over, and their parse and planning cost
 * more than running them (the accept statement, the queue claims). A prepared statement is parsed once;
 * each call is then one pass: bind, execute, sync. It is prepared again from time to time (`ReplanSchedule`),
 * so its plan follows the tables' growth.
 */

interface Prepared {
  name: string;
  /** Carried over to the statement that replaces this one. */
  schedule: ReplanSchedule;
  paramTypes: number[];
  /** What the statement returns, as the engine described it once (rows are parsed with it). */
  rowDescription: messages.BackendMessage | null;
}

/** More distinct statements than this are run unprepared (texts that vary, like `in ($1, $2, …)` lists). */
const MAX_PREPARED = 500;
/** PostgreSQL refuses a prepared statement whose result columns changed under it (a migration): prepare again. */
const CACHED_PLAN_CHANGED = '0A000';

const statementsOf = new WeakMap<PGlite, Map<string, Prepared>>();
let preparedCount = 0;

const { serialize } = protocol;

async function prepare(pglite: PGlite, statements: Map<string, Prepared>, text: string, schedule = new ReplanSchedule()): Promise<Prepared> {
  const name = `gw_prepared_${++preparedCount}`;
  const messages = await pglite.execProtocolStream(Buffer.concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
    syncToFs: false,
  });
  const prepared: Prepared = {
    name,
    schedule,
    paramTypes: parse.parseDescribeStatementResults(messages),
    rowDescription: messages.find((m) => m.name === 'rowDescription') ?? null,
  };
  statements.set(text, prepared);
  return prepared;
}

/** Drops a statement and prepares its text again, to be planned anew for the tables as they are now. */
async function replace(pglite: PGlite, statements: Map<string, Prepared>, text: string, statement: Prepared): Promise<void> {
  await pglite.execProtocolStream(Buffer.concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]), { syncToFs: false });
  await prepare(pglite, statements, text, statement.schedule);
}

async function run(pglite: PGlite, statement: Prepared, params: readonly unknown[]): Promise<Results> {
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serializer = pglite.serializers[statement.paramTypes[i]!];
    return serializer ? serializer(value) : String(value as string);
  });
  const messages = await pglite.execProtocolStream(Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]), {
    syncToFs: false,
  });
  const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
  return parse.parseResults(described, pglite.parsers)[0] ?? { rows: [], fields: [] };
}

/**
 * Runs `text` with `params` as a prepared statement, or answers null when too many statements are prepared
 * already (the caller runs it the usual way). `inTransaction`: the caller holds the database's transaction
 * (inside a PGlite `transaction()` callback); otherwise this waits for it, as `query()` does.
 */
export function queryPrepared<R>(pglite: PGlite, text: string, params: readonly unknown[], inTransaction: boolean): Promise<Results<R>> | null {
  let statements = statementsOf.get(pglite);
  if (!statements) statementsOf.set(pglite, (statements = new Map()));
  const known = statements;
  if (!known.has(text) && known.size >= MAX_PREPARED) return null;
  const once = () =>
    pglite.runExclusive(async () => {
      try {
        const statement = known.get(text) ?? (await prepare(pglite, known, text));
        const results = (await run(pglite, statement, params)) as Results<R>;
        // The call has run: should preparing it anew fail, the next call prepares the text from scratch.
        if (statement.schedule.ran()) await replace(pglite, known, text, statement).catch(() => known.delete(text));
        return results;
      } finally {
        if (!inTransaction) await pglite.syncToFs();
      }
    });
  const attempt = async () => {
    try {
      return await once();
    } catch (err) {
      if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED || !known.has(text)) throw err;
      known.delete(text);
      // Outside a transaction nothing was aborted: the same call can go again on a fresh statement.
      if (inTransaction) throw err;
      return once();
    }
  };
  return inTransaction ? attempt() : pglite._runExclusiveTransaction(attempt);
}
