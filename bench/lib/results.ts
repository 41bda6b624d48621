/** bench/results.md from the gathered rows: one table, ratios as "ours ÷ baseline". */
import type { BenchRow } from './report.ts';

export interface BenchResults {
  started: string;
  finished: string;
  machine: Record<string, string | number | number[]>;
  rows: BenchRow[];
  /** Rows of the suite that cannot be measured yet, with the reason. */
  notMeasured: string[];
  problems: string[];
  /** Rows measured again after the full run (`BENCH_ONLY`), with when. */
  remeasured?: string[];
}

const figure = (n: number | null, unit = ''): string => {
  if (n === null || Number.isNaN(n)) return '–';
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return `${n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 })}${unit ? ` ${unit}` : ''}`;
};

const verdict = (met: boolean | null) => (met === null ? '' : met ? 'met' : '**missed**');

export function renderResults(results: BenchResults): string {
  const m = results.machine;
  const lines = [
    '# Benchmark results',
    '',
    `Measured by \`npm run bench\` from ${results.started} to ${results.finished}.` +
      (results.remeasured?.length ? ` Measured again: ${results.remeasured.join('; ')}.` : ''),
    '',
    `Machine: ${m.cores} cores (${m.cpu}), ${m.memory_gib} GiB, Node ${m.node}, load average at start ${String(m.load_average_at_start)}; PostgreSQL: ${m.postgres}.`,
    '',
    'Every figure is the median of the runs shown; the baseline ran on the same machine in the same run, and',
    'the ratio is ours ÷ baseline (for latency and memory, lower is better; for throughput, higher).',
    '',
    '| Row | Metric | Database | Ours | Baseline | Ratio | Budget | | Runs |',
    '| --- | --- | --- | ---: | --- | ---: | --- | --- | ---: |',
  ];
  for (const r of results.rows) {
    const baseline = r.baseline === null ? '–' : `${figure(r.baseline, r.unit)} (${r.baselineName})`;
    lines.push(
      `| ${r.row} | ${r.metric} | ${r.database ?? '–'} | ${figure(r.ours, r.unit)} | ${baseline} | ${r.ratio === null ? '–' : figure(r.ratio)} | ${r.budget ?? '–'} | ${verdict(r.met)} | ${r.runs} |`,
    );
  }
  const detailed = results.rows.filter((r) => r.details && Object.keys(r.details).length > 0);
  if (detailed.length > 0) {
    lines.push('', '## Details', '');
    for (const r of detailed) {
      lines.push(`- ${r.row}, ${r.metric}${r.database ? ` (${r.database})` : ''}: ${Object.entries(r.details!).map(([k, v]) => `${k.replaceAll('_', ' ')} ${typeof v === 'number' ? figure(v) : v}`).join(', ')}`);
    }
  }
  if (results.notMeasured.length > 0) lines.push('', '## Not measured', '', ...results.notMeasured.map((p) => `- ${p}`));
  if (results.problems.length > 0) lines.push('', '## Problems', '', ...results.problems.map((p) => `- ${p}`));
  return `${lines.join('\n')}\n`;
}
