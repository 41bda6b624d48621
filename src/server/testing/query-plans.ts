import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/schema.ts';

type Query = { sql: string; parameters: readonly unknown[] };

/** PostgreSQL's plan for `query` (a statement's text, or a compiled query with its parameters), explained, not run. */
async function planOf(db: Kysely<DatabaseSchema>, query: string | Query): Promise<unknown> {
  const { sql, parameters } = typeof query === 'string' ? { sql: query, parameters: [] } : query;
  const explained = await db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${sql}`, [...parameters]));
  const plan = explained.rows[0]!['QUERY PLAN'];
  return typeof plan === 'string' ? JSON.parse(plan) : plan;
}

/** Calls `visit` with every node of `plan`'s tree. */
function eachNode(plan: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(plan)) return plan.forEach((n) => eachNode(n, visit));
  if (plan === null || typeof plan !== 'object') return;
  visit(plan as Record<string, unknown>);
  for (const value of Object.values(plan)) eachNode(value, visit);
}

/** The index names in the plan of `query`, wherever they sit in its tree. */
export async function indexesRead(db: Kysely<DatabaseSchema>, query: string | Query): Promise<string[]> {
  const found: string[] = [];
  eachNode(await planOf(db, query), (n) => {
    if (typeof n['Index Name'] === 'string') found.push(n['Index Name']);
  });
  return found;
}

/**
 * What the plan of `query` reads whole, wherever it sits in the plan's tree: tables read by a sequential scan,
 * and indexes read from end to end (an index scan with no index condition).
 */
export async function readWhole(db: Kysely<DatabaseSchema>, query: string | Query): Promise<string[]> {
  const found: string[] = [];
  eachNode(await planOf(db, query), (n) => {
    if (n['Node Type'] === 'Seq Scan' && typeof n['Relation Name'] === 'string') found.push(n['Relation Name']);
    if (String(n['Node Type']).endsWith('Index Scan') && typeof n['Index Name'] === 'string' && n['Index Cond'] === undefined) found.push(n['Index Name']);
  });
  return found;
}
