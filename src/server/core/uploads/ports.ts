/** A file an agent attached in the chat frame, kept for the messengers to fetch from the gateway's link. */
export interface UploadRecord {
  id: string;
  accountId: string;
  name: string;
  mimetype: string;
  size: number;
  /** Hex SHA-1 of the bytes (the interface's `attachment.sha1`). */
  sha1: string;
  createdAt: Date;
  /**
   * A file a customer sent, downloaded from the messenger: kept whatever the quota and not counted in it (the quota
   * bounds what the account's agents upload, not what their customers send).
   */
  received: boolean;
}

/** What an account may upload: at most `limitBytes` in the uploads made since `since`. */
export interface UploadQuota {
  since: Date;
  limitBytes: number;
}

export interface UploadRepository {
  /**
   * Keeps the upload unless it would take its account past the quota (a received file is kept whatever the quota);
   * answers the bytes the account's agents had uploaded and whether this one was kept. Two uploads of one account are weighed one after the other, never both against the
   * same room.
   */
  insertWithinQuota(upload: UploadRecord, content: Buffer, quota: UploadQuota): Promise<{ stored: boolean; usedBytes: number }>;
  /** The upload and its bytes, whichever account it is of (its signed link is the proof). */
  open(id: string): Promise<{ upload: UploadRecord; content: Buffer } | undefined>;
  /** Deletes up to `limit` uploads made before `before`; returns how many. */
  prune(before: Date, limit: number): Promise<number>;
  /**
   * Removes kept bytes that belong to no upload and were written before `before` (where bytes are kept apart from
   * the rows: what a crash between the two left); returns how many.
   */
  removeStrays(before: Date): Promise<number>;
}
