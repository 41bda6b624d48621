import { CompiledQuery, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/schema.ts';

/**
 * What PostgreSQL's plan for `query` reads whole, wherever it sits in the plan's tree: tables read by a
 * sequential scan, and indexes read from end to end (an index scan with no index condition). The query is
 * explained, not run, with its own parameters.
 */
export async function readWhole(db: Kysely<DatabaseSchema>, query: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
  const explained = await db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]));
  const plan = explained.rows[0]!['QUERY PLAN'];
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n['Node Type'] === 'Seq Scan' && typeof n['Relation Name'] === 'string') found.push(n['Relation Name']);
    if (String(n['Node Type']).endsWith('Index Scan') && typeof n['Index Name'] === 'string' && n['Index Cond'] === undefined) found.push(n['Index Name']);
    Object.values(n).forEach(visit);
  };
  visit(typeof plan === 'string' ? JSON.parse(plan) : plan);
  return found;
}
