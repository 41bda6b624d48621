import { sql, type RawBuilder } from 'kysely';
import { Slot } from './fixed-statement.ts';

/**
 * Rows sent as one jsonb parameter and read back as the typed relation `alias (columns)`, keyed by the
 * rows' property names. A VALUES list takes a parameter per cell, so its text changes with the number of
 * rows, and PostgreSQL parses and plans every length as a statement of its own; one parameter keeps one
 * text, prepared once per connection and then only executed. The relation has no order: where order
 * matters, carry it in a column.
 *
 * PostgreSQL expects 100 rows of such a relation, and a prepared statement's generic plan is made without
 * seeing them: joined to a table as it is, it gets the table scanned and hashed. So a statement that
 * updates rows by these keys also names them with `anyUuid`, which the plan reads through the index.
 *
 * `alias` and `columns` are the caller's constants, never input. In a fixed statement `rows` is a slot, whose
 * value is the rows as a JSON text.
 */
export function jsonRows(alias: string, columns: Record<string, string>, rows: readonly object[] | Slot): RawBuilder<unknown> {
  const definition = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  return sql`jsonb_to_recordset(${rows instanceof Slot ? rows : JSON.stringify(rows)}::jsonb) as ${sql.raw(alias)} (${sql.raw(definition)})`;
}

/**
 * `any(<uuid[]>)`: a list of ids of any length in one statement text, as one array parameter (in a fixed
 * statement, a slot whose value is the array).
 */
export const anyUuid = (ids: readonly string[] | Slot): RawBuilder<string> => sql<string>`any(${ids instanceof Slot ? ids : [...ids]}::uuid[])`;
