import type { Attachment } from '../../../contract/messages.ts';
import type { CredentialsCipher } from '../../core/channels/ports.ts';
import type { MessengerFile, MessengerFileRangeNotSatisfiable } from '../../core/messages/ports.ts';
import type { Store } from '../../core/ports.ts';
import { AppError } from '../../core/errors.ts';
import { botKeyOf, fileLinks, tokenFrom, typeByName } from '../bot-common.ts';
import { forwardedRange } from '../byte-ranges.ts';
import { downloadFromPlatform } from '../platform-download.ts';
import { FileTooLarge, discard, fetchSource, multipart, sourceTypeOf, uploadNameOf, type SourceOptions } from '../file-source.ts';
import { oggNameOf, voiceNoteSource } from '../voice-note.ts';
import { BotApiError, botApi, fileDownloadUrl, type BotApi, type BotFile, type BotMessage } from './bot-api.ts';
import { resolvedAddresses } from '../resolved-addresses.ts';

/** How long Telegram may take to start sending a file, and to send the next part of it. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/** Types Telegram's file server often leaves as octet-stream, told by the stored file's extension. */
const typesByExtension: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['webp', 'image/webp'],
  ['mp4', 'video/mp4'],
  ['mp3', 'audio/mpeg'],
  ['m4a', 'audio/mp4'],
  ['oga', 'audio/ogg'],
  ['ogg', 'audio/ogg'],
  ['pdf', 'application/pdf'],
]);

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

/** The parameter of a file's link that keeps the file's `file_unique_id`: which file it is, whatever its file id. */
const UNIQUE_ID_PARAM = 'file_unique_id';

/** The `file_unique_id` a link of ours keeps (null for a link made without one, or not a URL). */
export function fileUniqueIdOfLink(url: string): string | null {
  try {
    return new URL(url).searchParams.get(UNIQUE_ID_PARAM);
  } catch {
    return null;
  }
}

/**
 * A customer's files stay at Telegram, whose download addresses hold the bot's token. The gateway gives each one
 * a link of its own instead: `${PUBLIC_URL}/hooks/telegram/<channel>/files/<file id>?file_unique_id=…&signature=…`,
 * signed so that it can be neither forged nor pointed at another file, and fetches the file from Telegram when it
 * is opened. `file_unique_id` (not signed: it opens nothing) tells an edit whether the file was replaced, as
 * Telegram may give one file another file id. Like the file ids they name, the links do not expire; anyone holding
 * one may download, as with a presigned URL.
 */
export function telegramFiles(deps: TelegramFileDeps) {
  const links = fileLinks(deps.linkKey, deps.publicUrl, 'telegram');
  const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'Telegram could not give the file; try again');
  // Telegram keeps a path it gave valid for an hour at least.
  const filePaths = resolvedAddresses({ ttlMs: 10 * 60_000 });

  return {
    attachment(channelId: string, found: NonNullable<ReturnType<typeof fileOf>>): Attachment {
      const unique = typeof found.file.file_unique_id === 'string' ? `${UNIQUE_ID_PARAM}=${encodeURIComponent(found.file.file_unique_id)}&` : '';
      return {
        url: links.url(channelId, found.file.file_id, unique),
        ...(found.name ? { name: found.name.slice(0, 256) } : {}),
        ...(found.mimetype ? { mimetype: found.mimetype.slice(0, 128) } : {}),
        ...(typeof found.file.file_size === 'number' ? { size: found.file.file_size } : {}),
      };
    },

    /**
     * The file behind a link: `forbidden` for a link that is not one of ours, null for a file Telegram no longer
     * has. A file over Telegram's 20 MB limit for bots is a 413; Telegram out of reach or failing, a 503. A single
     * range in `rangeHeader` (the client's `Range`) is asked of Telegram's file server, whose part is handed on.
     */
    async open(channelId: string, fileId: string, signature: string, rangeHeader?: string): Promise<MessengerFile | MessengerFileRangeNotSatisfiable | 'forbidden' | null> {
      if (!links.verify(channelId, fileId, signature)) return 'forbidden';
      const channel = await deps.store.channels.getById(channelId);
      const token = tokenFrom(deps.cipher, channel?.credentials, 'telegram_token');
      if (token === null) return null;
      const range = forwardedRange(rangeHeader);
      return filePaths.open(
        { channelId, fileId, bot: botKeyOf(token) },
        async () => {
          try {
            return (await botApi(deps.apiUrl, token).call<{ file_path?: string }>('getFile', { file_id: fileId })).file_path ?? null;
          } catch (err) {
            if (err instanceof BotApiError && /too big/i.test(err.message)) throw new AppError('PAYLOAD_TOO_LARGE', 'Telegram lets bots download files of up to 20 MB');
            if (err instanceof BotApiError && err.errorCode === 400) return null;
            throw unavailable();
          }
        },
        async (path) => {
          const got = await downloadFromPlatform(fileDownloadUrl(deps.apiUrl, token, path), range, { timeoutMs: DOWNLOAD_TIMEOUT_MS, unavailable });
          if (!got || 'rangeNotSatisfiable' in got) return got;
          const { toldType, ...file } = got;
          const contentType = toldType && toldType !== 'application/octet-stream' ? toldType : (typeByName(path, typesByExtension) ?? 'application/octet-stream');
          return { ...file, contentType };
        },
      );
    },
  };
}

export type TelegramFiles = ReturnType<typeof telegramFiles>;

/**
 * Telegram's limits for a file a bot uploads (multipart/form-data): 10 MB for a photo, 50 MB for anything else
 * (https://core.telegram.org/bots/api#sending-files). By URL Telegram would fetch less: 5 MB photos, 20 MB other
 * files, and documents only as GIF, PDF or ZIP.
 */
export const UPLOAD_LIMITS: Readonly<UploadLimits> = { photo: 10_000_000, file: 50_000_000 };

export interface UploadLimits {
  photo: number;
  file: number;
}

/**
 * How Telegram shows a file: its kind is the field it goes in (`photo`, …) and, but for a voice note (which an edit
 * cannot make), the InputMedia type of an edit.
 */
export type FileKind = 'photo' | 'video' | 'audio' | 'voice' | 'document';

/**
 * The kind a file goes as, by its type: photos, MP4 video and MP3 or M4A sound as their kind, Opus in Ogg as a voice
 * note (`sendVoice` takes it so), anything else a document.
 */
export function fileKindOf(mimetype: string | null | undefined): FileKind {
  if (mimetype && /^image\/(jpeg|png|webp)$/.test(mimetype)) return 'photo';
  if (mimetype === 'video/mp4') return 'video';
  if (mimetype === 'audio/mpeg' || mimetype === 'audio/mp4') return 'audio';
  if (mimetype === 'audio/ogg' || mimetype === 'audio/opus') return 'voice';
  return 'document';
}

/**
 * A call's parameters as form fields: text as it is, numbers and booleans as their digits and words, and objects
 * (`reply_markup`, `reply_parameters`, an edit's `media`) JSON-serialized, as Telegram reads them from a form.
 */
export function formFields(params: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    fields[name] = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return fields;
}

export interface UploadOptions extends SourceOptions {
  /** UPLOAD_LIMITS unless a test says. */
  limits?: UploadLimits;
  /** Goes as a document whatever its type (a picture Telegram would not take as a photo). */
  asDocument?: boolean;
}

/** The call that carries a file of a kind: its method, its other parameters, and the form field the file goes in. */
export type FileCall = (kind: FileKind) => { method: string; params: Record<string, unknown>; field: string };

/**
 * Sends the file at the CRM's address to Telegram as an upload: fetched through the guarded agent and streamed into
 * the call `call` makes for its kind. A photo larger than Telegram takes as a photo (by the length its server
 * gives) goes as a document; a voice note a browser recorded as WebM goes as one, its Opus moved into Ogg; a file
 * over the limit for its kind fails as FileTooLarge, before Telegram is called where its length is told. The source
 * is closed however the call ends.
 */
export async function uploadFile<T>(api: BotApi, file: { url: string; name?: string; mimetype?: string }, call: FileCall, options: UploadOptions): Promise<T> {
  const limits = options.limits ?? UPLOAD_LIMITS;
  const fetched = await fetchSource(file.url, options, limits.file, 'Telegram');
  let source = fetched;
  try {
    let contentType = sourceTypeOf(file, fetched);
    let name = uploadNameOf(file);
    if (!options.asDocument) {
      const remuxed = await voiceNoteSource(fetched, contentType, limits.file, 'Telegram');
      source = remuxed.source;
      if (remuxed.voice) [contentType, name] = [source.contentType, oggNameOf(name)];
    }
    let kind: FileKind = options.asDocument ? 'document' : fileKindOf(contentType);
    if (kind === 'photo' && source.length !== null && source.length > limits.photo) kind = 'document';
    const limit = kind === 'photo' ? limits.photo : limits.file;
    const { method, params, field } = call(kind);
    const form = multipart(formFields(params), { field, name, contentType: contentType ?? 'application/octet-stream', source }, limit, 'Telegram');
    try {
      return await api.upload<T>(method, form, options.signal);
    } catch (err) {
      if (form.overLimit()) throw new FileTooLarge(`the file is over ${limit} bytes, which Telegram does not take as a ${kind}`);
      throw err;
    }
  } finally {
    discard(fetched.body);
    discard(source.body);
  }
}
