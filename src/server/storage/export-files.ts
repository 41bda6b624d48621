import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import type { ExportFiles, ExportRow } from '../core/exports/ports.ts';

/** Blanks (any white space, no-break and ideographic spaces included) before a formula's first character: spreadsheets skip them. */
const BLANKS_THEN_FORMULA = /^[\s\uFEFF]+[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A cell starting with = + - @, a tab or a carriage return (or their full-width forms), or with blanks before one of
 * them, gets a leading apostrophe, as OWASP's CSV-injection guidance says: a customer's message must not run as a
 * formula in the spreadsheet an operator opens the export in. The apostrophe shows in the cell; spreadsheets read the
 * rest as text. (The CSV library guards the first character; the blanks before one are guarded here.)
 */
const csv = {
  record_delimiter: 'windows',
  escape_formulas: true,
  cast: { string: (value: string) => (BLANKS_THEN_FORMULA.test(value) ? `'${value}` : value) },
} as const;

/**
 * Export files in one directory (DATA_DIR/exports): RFC 4180 CSV (CRLF, fields quoted when needed) in UTF-8
 * with a byte-order mark, so spreadsheet programs read Cyrillic. Each page of records becomes one chunk of
 * text (a row at a time through a stream costs more than reading it from the database) and flows to the disk
 * with back-pressure; a file is written under a temporary name and renamed once complete.
 */
export function exportFiles(dir: string): ExportFiles {
  const pathOf = (exportId: string) => join(dir, `${exportId}.csv`);
  return {
    async write(exportId, columns, pages) {
      await mkdir(dir, { recursive: true });
      const partial = `${pathOf(exportId)}.part`;
      async function* chunks() {
        yield stringify([columns], { ...csv, bom: true });
        for await (const page of pages) if (page.length > 0) yield stringify(page as ExportRow[], csv);
      }
      try {
        await pipeline(Readable.from(chunks(), { objectMode: false }), createWriteStream(partial));
        await rename(partial, pathOf(exportId));
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    async open(exportId) {
      const path = pathOf(exportId);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) return null;
      return { stream: createReadStream(path), size: info.size };
    },
    async remove(exportId) {
      await rm(pathOf(exportId), { force: true });
    },
  };
}
