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
}

export interface UploadRepository {
  insert(upload: UploadRecord, content: Buffer): Promise<void>;
  /** The upload and its bytes, whichever account it is of (its signed link is the proof). */
  open(id: string): Promise<{ upload: UploadRecord; content: Buffer } | undefined>;
  /** Bytes the account uploaded since `since`. */
  bytesSince(accountId: string, since: Date): Promise<number>;
  /** Deletes up to `limit` uploads made before `before`; returns how many. */
  prune(before: Date, limit: number): Promise<number>;
}
