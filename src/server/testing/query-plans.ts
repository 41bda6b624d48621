import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/schema.ts';

/**
 * The tables PostgreSQL's plan for `query` reads whole (sequential scans), wherever they sit in its tree:
 * the query is explained, not run, with its own parameters.
 */
export async function tablesReadWhole(db: Kysely<DatabaseSchema>, query: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
  const explained = await db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]));
  const plan = explained.rows[0]!['QUERY PLAN'];
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n['Node Type'] === 'Seq Scan' && typeof n['Relation Name'] === 'string') found.push(n['Relation Name']);
    Object.values(n).forEach(visit);
  };
  visit(typeof plan === 'string' ? JSON.parse(plan) : plan);
  return found;
}
