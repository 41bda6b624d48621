import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportColumn } from '../../contract/exports.ts';
import { exportFiles } from './export-files.ts';

describe('export files', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('neutralises cells a spreadsheet would run as a formula, as OWASP says: a leading quote before = + - @ tab and CR, blanks before them too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'exports-'));
    dirs.push(dir);
    const files = exportFiles(dir);
    const texts = [
      ...['=HYPERLINK("https://evil.example","click")', '+1+2', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '＝1', 'plain', 'a=b', ''],
      // Spreadsheets skip leading blanks before they look for a formula.
      ...[' =1+1', '  +1', '\n-1', '\u00a0@SUM(A1)', '\u3000＝1', ' plain', ' a=b'],
    ];
    async function* pages() {
      yield texts.map((text) => [text] as const);
    }
    await files.write('11111111-1111-4111-8111-111111111111', ['text'] as unknown as ExportColumn[], pages());
    const body = await readFile(join(dir, '11111111-1111-4111-8111-111111111111.csv'), 'utf8');
    const rows = parse(body, { bom: true }) as string[][];
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      `'=HYPERLINK("https://evil.example","click")`,
      "'+1+2",
      "'-2+3",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
      "'＝1",
      'plain',
      'a=b',
      '',
      "' =1+1",
      "'  +1",
      "'\n-1",
      "'\u00a0@SUM(A1)",
      "'\u3000＝1",
      ' plain',
      ' a=b',
    ]);
  });
});
