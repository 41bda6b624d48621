import type { Readable } from 'node:stream';
import type { ExportColumn, ExportStatus } from '../../../contract/exports.ts';
import type { Clock, Store } from '../ports.ts';

export interface ExportRecord {
  id: string;
  accountId: string;
  /** null: every channel of the account. */
  channelId: string | null;
  /** The period [startAt, endAt). */
  startAt: Date;
  endAt: Date;
  status: ExportStatus;
  rowCount: number | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** When the download link stops working (24 hours after completion). */
  expiresAt: Date | null;
}

/** Which messages an export holds. */
export interface ExportScope {
  accountId: string;
  channelId: string | null;
  startAt: Date;
  endAt: Date;
}

/** Where a page of messages ended; the next page starts after it. Opaque to the core. */
export interface ExportCursor {
  at: string;
  seq: string;
}

/**
 * One message as a record of the file: its values in `exportColumns` order, every value already text
 * (instants as ISO 8601 UTC with milliseconds), so pages go from the database to the file as they are.
 */
export type ExportRow = readonly (string | null)[];

export interface ExportRepository {
  insert(record: ExportRecord): Promise<void>;
  /** An export of the account; another account's is not found. */
  get(accountId: string, id: string): Promise<ExportRecord | undefined>;
  /** For the job, which knows only the id; locks the row until the transaction ends. */
  getByIdForUpdate(id: string): Promise<ExportRecord | undefined>;
  update(record: ExportRecord): Promise<void>;
  /** Whether the channel is the account's, deleted ones included (their history stays exportable). */
  channelBelongs(accountId: string, channelId: string): Promise<boolean>;
  /** Messages of the scope in time order (created_at, then insertion), `limit` at a time after `after`, as records of the file. */
  messagePage(scope: ExportScope, after: ExportCursor | null, limit: number): Promise<{ rows: ExportRow[]; next: ExportCursor | null }>;
}

/** The export files: written once by streaming, read by the download link, removed once it expired. */
export interface ExportFiles {
  /** Writes the rows as CSV, a header of `columns` first, under the export's name; the file appears only when complete. */
  write(exportId: string, columns: readonly ExportColumn[], pages: AsyncIterable<readonly ExportRow[]>): Promise<void>;
  open(exportId: string): Promise<{ stream: Readable; size: number } | null>;
  remove(exportId: string): Promise<void>;
}

/** Signed download links of export files. */
export interface DownloadLinks {
  url(exportId: string, expiresAt: Date): string;
  /** Whether the signature is ours for this export and expiry. */
  verify(exportId: string, expires: string, signature: string): boolean;
}

export interface ExportDeps {
  store: Store;
  clock: Clock;
  files: ExportFiles;
  links: DownloadLinks;
  /** Messages read per database round trip. */
  pageSize?: number;
}
