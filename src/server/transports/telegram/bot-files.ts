import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { Attachment } from '../../../contract/messages.ts';
import type { CredentialsCipher } from '../../core/channels/ports.ts';
import type { Store } from '../../core/ports.ts';
import { AppError } from '../../core/errors.ts';
import { BotApiError, botApi, fileDownloadUrl, type BotFile, type BotMessage } from './bot-api.ts';

/** How long Telegram may take to start sending a file, and to send the next part of it. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** Types Telegram's file server often leaves as octet-stream, told by the stored file's extension. */
const typesByExtension: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  oga: 'audio/ogg',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
};

/** A file a customer sent, ready to stream to whoever holds its link. */
export interface OpenedFile {
  stream: Readable;
  contentType: string;
  size: number | null;
}

export interface TelegramFileDeps {
  apiUrl: string;
  publicUrl: string;
  /** Signs the links (a key of its own, derived from SECRET_KEY). */
  linkKey: Buffer;
  store: Store;
  cipher: CredentialsCipher;
}

/** The file of a message, if it has one: a photo's largest size, or the document, video, audio or voice note. */
export function fileOf(message: BotMessage): { file: BotFile; name: string | null; mimetype: string | null } | null {
  const photo = Array.isArray(message.photo) ? message.photo.at(-1) : undefined;
  if (photo && typeof photo.file_id === 'string') return { file: photo, name: null, mimetype: 'image/jpeg' };
  for (const file of [message.document, message.video, message.audio, message.voice]) {
    if (file && typeof file.file_id === 'string') return { file, name: file.file_name ?? null, mimetype: file.mime_type ?? null };
  }
  return null;
}

/**
 * A customer's files stay at Telegram, whose download addresses hold the bot's token. The gateway gives each one
 * a link of its own instead: `${PUBLIC_URL}/hooks/telegram/<channel>/files/<file id>?signature=…`, signed so
 * that it can be neither forged nor pointed at another file, and fetches the file from Telegram when it is opened.
 * Like the file ids they name, the links do not expire; anyone holding one may download, as with a presigned URL.
 */
export function telegramFiles(deps: TelegramFileDeps) {
  const sign = (channelId: string, fileId: string) => createHmac('sha256', deps.linkKey).update(`${channelId}/${fileId}`).digest();

  return {
    attachment(channelId: string, found: NonNullable<ReturnType<typeof fileOf>>): Attachment {
      const signature = sign(channelId, found.file.file_id).toString('base64url');
      return {
        url: `${deps.publicUrl}/hooks/telegram/${channelId}/files/${encodeURIComponent(found.file.file_id)}?signature=${signature}`,
        ...(found.name ? { name: found.name.slice(0, 256) } : {}),
        ...(found.mimetype ? { mimetype: found.mimetype.slice(0, 128) } : {}),
        ...(typeof found.file.file_size === 'number' ? { size: found.file.file_size } : {}),
      };
    },

    /**
     * The file behind a link: `forbidden` for a link that is not one of ours, null for a file Telegram no longer
     * has. A file over Telegram's 20 MB limit for bots is a 413; Telegram out of reach or failing, a 503.
     */
    async open(channelId: string, fileId: string, signature: string): Promise<OpenedFile | 'forbidden' | null> {
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(channelId, fileId);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forbidden';
      const channel = await deps.store.transaction((tx) => tx.channels.getByIdForUpdate(channelId));
      const token = channel?.credentials ? deps.cipher.open(channel.credentials).telegram_token : undefined;
      if (typeof token !== 'string') return null;
      let stored: { file_path?: string };
      try {
        stored = await botApi(deps.apiUrl, token).call<{ file_path?: string }>('getFile', { file_id: fileId });
      } catch (err) {
        if (err instanceof BotApiError && /too big/i.test(err.message)) throw new AppError('PAYLOAD_TOO_LARGE', 'Telegram lets bots download files of up to 20 MB');
        if (err instanceof BotApiError && err.errorCode === 400) return null;
        throw new AppError('SERVICE_UNAVAILABLE', 'Telegram could not give the file; try again');
      }
      if (!stored.file_path) return null;
      const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'Telegram could not give the file; try again');
      const res = await request(fileDownloadUrl(deps.apiUrl, token, stored.file_path), {
        method: 'GET',
        headersTimeout: DOWNLOAD_TIMEOUT_MS,
        bodyTimeout: DOWNLOAD_TIMEOUT_MS,
      }).catch(() => {
        throw unavailable();
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        if (res.statusCode === 404) return null;
        throw unavailable();
      }
      const length = Number(res.headers['content-length']);
      const told = res.headers['content-type'];
      const byName = typesByExtension[stored.file_path.split('.').pop()?.toLowerCase() ?? ''];
      const contentType = typeof told === 'string' && told !== 'application/octet-stream' ? told : (byName ?? 'application/octet-stream');
      return { stream: res.body, contentType, size: Number.isFinite(length) ? length : null };
    },
  };
}

export type TelegramFiles = ReturnType<typeof telegramFiles>;
