/**
 * What every benchmark script reports. A script prints its own human summary and, when `BENCH_JSON` names
 * a file, writes its rows there; `npm run bench` runs each script in its own process and gathers the rows
 * into bench/results.md and bench/results.json.
 */
import { writeFile } from 'node:fs/promises';

export interface BenchRow {
  /** Which of the benchmark suite's rows this is, e.g. `accept`, `webhooks`, `realtime`. */
  row: string;
  /** What was measured, e.g. `POST /v2/messages requests/s`. */
  metric: string;
  unit: string;
  /** `PGlite`, `PostgreSQL`, or null when no database is involved. */
  database: string | null;
  /** Our median over `runs`. */
  ours: number;
  /** The baseline's median in the same run, when the row has one. */
  baseline: number | null;
  baselineName: string | null;
  /** `ours / baseline` (or `baseline / ours` when lower is better), null without a baseline. */
  ratio: number | null;
  /** The budget as written in the issue, e.g. `≥ 1,000 req/s`. */
  budget: string | null;
  /** Whether `ours` meets the budget; null when the row has none. */
  met: boolean | null;
  runs: number;
  /** Figures worth keeping beside the headline (latency percentiles, sizes…). */
  details?: Record<string, number | string>;
}

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The q-quantile (0 < q ≤ 1) by the nearest-rank method. */
export const percentile = (xs: readonly number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};

export const databaseName = (url: string | undefined): string => (url ? 'PostgreSQL' : 'PGlite');

/** Writes the rows where `npm run bench` asked for them; a no-op when a script runs on its own. */
export async function reportRows(rows: BenchRow[]): Promise<void> {
  const target = process.env.BENCH_JSON;
  if (target) await writeFile(target, JSON.stringify({ rows }, null, 2));
}
