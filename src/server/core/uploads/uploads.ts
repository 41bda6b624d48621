import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Attachment } from '../../../contract/messages.ts';
import { uploadLimits } from '../../../contract/uploads.ts';
import { AppError, validationError } from '../errors.ts';
import { deriveKey } from '../keys.ts';
import type { Clock, Store } from '../ports.ts';
import type { UploadRecord } from './ports.ts';

export interface UploadDeps {
  store: Pick<Store, 'uploads'>;
  clock: Clock;
  links: UploadLinks;
  /** Bytes one account may upload in 24 hours (UPLOAD_DAILY_LIMIT_MB): what keeps the gateway's storage in bounds. */
  dailyLimitBytes: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long uploads are kept (their links answer 404 after it). */
export const UPLOAD_RETENTION_MS = uploadLimits.keptDays * 24 * 60 * 60 * 1000;

/**
 * Upload links: `${publicUrl}/files/<id>?signature=<b64url>`, an HMAC-SHA256 of the id under a key derived from
 * SECRET_KEY (its own label). They do not expire: the file is kept as long as the messengers and the history may
 * want it (UPLOAD_RETENTION_MS), and anyone holding the link may fetch it, as a messenger must.
 */
export interface UploadLinks {
  url(uploadId: string): string;
  verify(uploadId: string, signature: string): boolean;
}

export function uploadLinks(secretKey: string, publicUrl: string): UploadLinks {
  const key = deriveKey(secretKey, 'upload-links/v1');
  const sign = (id: string) => createHmac('sha256', key).update(`files/${id}`).digest();
  return {
    url: (id) => `${publicUrl}/files/${id}?signature=${sign(id).toString('base64url')}`,
    verify(id, signature) {
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(id);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** A type the gateway will serve the file under: the one given when it is a well-formed media type, else bytes. */
const mediaType = (given: string | undefined): string => {
  const type = (given ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type) && type.length <= 128 ? type : 'application/octet-stream';
};

/**
 * Keeps a file an agent attached and gives the attachment a send names it by. An empty file is refused, and so is
 * one that would take the account past its bytes of the last 24 hours.
 */
export async function storeUpload(deps: UploadDeps, accountId: string, file: { name: string; type: string | undefined; content: Buffer }): Promise<Attachment> {
  return keep(deps, accountId, file, false);
}

/**
 * Keeps a file a customer sent, downloaded from their messenger, behind a link of the gateway like an agent's
 * upload. It is never refused for the quota and does not count in it: the quota bounds what agents upload, and a
 * burst of customers' files must not stop an agent's upload for a day.
 */
export async function keepReceivedFile(deps: UploadDeps, accountId: string, file: { name: string; type: string | undefined; content: Buffer }): Promise<Attachment> {
  return keep(deps, accountId, file, true);
}

async function keep(deps: UploadDeps, accountId: string, file: { name: string; type: string | undefined; content: Buffer }, received: boolean): Promise<Attachment> {
  if (file.content.length === 0) throw validationError([{ field: 'body', message: 'must not be empty' }], 'The file is empty');
  const upload: UploadRecord = {
    id: randomUUID(),
    accountId,
    name: file.name,
    mimetype: mediaType(file.type),
    size: file.content.length,
    sha1: createHash('sha1').update(file.content).digest('hex'),
    createdAt: deps.clock.now(),
    received,
  };
  const quota = { since: new Date(upload.createdAt.getTime() - DAY_MS), limitBytes: deps.dailyLimitBytes };
  const { stored, usedBytes } = await deps.store.uploads.insertWithinQuota(upload, file.content, quota);
  if (!stored) {
    throw new AppError('UPLOAD_QUOTA_EXCEEDED', 'The account uploaded as much as it may in 24 hours', { limit_bytes: deps.dailyLimitBytes, used_bytes: usedBytes });
  }
  return { url: deps.links.url(upload.id), name: upload.name, mimetype: upload.mimetype, size: upload.size, sha1: upload.sha1 };
}

/** The file behind a link: 'forbidden' for a signature the gateway did not make, null once it is no longer kept. */
export async function openUpload(deps: UploadDeps, uploadId: string, signature: string): Promise<{ upload: UploadRecord; content: Buffer } | 'forbidden' | null> {
  if (!deps.links.verify(uploadId, signature)) return 'forbidden';
  const found = await deps.store.uploads.open(uploadId);
  if (!found || deps.clock.now().getTime() - found.upload.createdAt.getTime() >= UPLOAD_RETENTION_MS) return null;
  return found;
}
