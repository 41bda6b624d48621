import type { Dispatcher } from 'undici';
import { undici } from '../lazy-undici.ts';
import type { Attachment } from '../../../contract/messages.ts';
import type { CredentialsCipher } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { MessengerFile, MessengerFileRangeNotSatisfiable } from '../../core/messages/ports.ts';
import type { Store } from '../../core/ports.ts';
import { botKeyOf, fileLinks, tokenFrom, typeByName } from '../bot-common.ts';
import { forwardedRange } from '../byte-ranges.ts';
import { downloadFromPlatform } from '../platform-download.ts';
import { FileTooLarge, SourceRefused, TransferFailed, UploadRefused, discard, fetchSource, multipart, sourceTypeOf, uploadNameOf, type SourceOptions } from '../file-source.ts';
import { MaxApiError, maxApi, type MaxApi, type MaxAttachment, type UploadEndpoint } from './bot-api.ts';
import { resolvedAddresses } from '../resolved-addresses.ts';

/** MAX's kinds of uploaded file. */
export type UploadType = 'image' | 'video' | 'audio' | 'file';

/** What an uploaded file is attached as: `{token}`, or for a picture the `{photos}` the upload answered. */
export type UploadedPayload = { token: string } | { photos: Record<string, { token: string }> };

/** Types told by a file's name, for the files MAX names (it gives no type). */
const typesByExtension: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['webp', 'image/webp'],
  ['gif', 'image/gif'],
  ['mp4', 'video/mp4'],
  ['mov', 'video/quicktime'],
  ['mp3', 'audio/mpeg'],
  ['m4a', 'audio/mp4'],
  ['ogg', 'audio/ogg'],
  ['pdf', 'application/pdf'],
  ['doc', 'application/msword'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xls', 'application/vnd.ms-excel'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['txt', 'text/plain'],
  ['zip', 'application/zip'],
]);

/**
 * The largest file a send uploads. MAX documents two figures for a multipart upload: 2 GB in the Bot API schema
 * (`POST /uploads`, "Max. file size - 2 Gb") and 4 GB on dev.max.ru's page of the method; the lower one is kept.
 * A send has 25 s for everything besides, which in practice bounds it sooner.
 */
export const UPLOAD_LIMIT_BYTES = 2_000_000_000;

const MAX_URL = 2048;

/** A video's token as MAX gives it (dev.max.ru: `[a-zA-Z0-9_-]+`), short enough for a link's path. */
const VIDEO_TOKEN = /^[\w-]{1,512}$/;

/** The gateway's link to a video, by its token, in the channel whose update named it (maxFiles' `link`). */
export type VideoLink = (videoToken: string) => string;

/**
 * A customer's file in a message, as the interface's attachment: a picture, video, sound or file. MAX's own
 * addresses for pictures, sounds and files (`i.oneme.ru`, `fd.oneme.ru/getfile?sig=…&expires=…`) are signed by MAX
 * and hold no bot token, so they are handed on as they are; they expire when MAX says, and the gateway keeps no
 * copy. A video's address is not a direct link to its file (MAX gives those only through `GET /videos/{token}`, a
 * call with the bot's token): given `videoLink`, a video with a token is the gateway's own link to it instead
 * (maxFiles), as MP4, its size left out (the file served is MAX's rendition, not what the customer uploaded).
 * Without `videoLink` (an edit, which compares words alone) a video keeps MAX's address. Stickers, contacts,
 * locations, shared links and keyboards are not files: null.
 */
export function attachmentOf(found: MaxAttachment, videoLink?: VideoLink): Attachment | null {
  if (!['image', 'video', 'audio', 'file'].includes(found.type)) return null;
  const name = typeof found.filename === 'string' && found.filename ? found.filename.slice(0, 256) : null;
  const videoToken = found.payload?.token;
  if (found.type === 'video' && videoLink && typeof videoToken === 'string' && VIDEO_TOKEN.test(videoToken)) {
    return { url: videoLink(videoToken), ...(name ? { name } : {}), mimetype: 'video/mp4' };
  }
  const url = found.payload?.url;
  if (typeof url !== 'string' || url.length > MAX_URL || !/^https?:\/\//i.test(url)) return null;
  const byName = typeByName(name, typesByExtension);
  return {
    url,
    ...(name ? { name } : {}),
    ...(byName ? { mimetype: byName } : {}),
    ...(typeof found.size === 'number' && Number.isInteger(found.size) && found.size >= 0 ? { size: found.size } : {}),
  };
}

/** How long MAX may take to answer `GET /videos/{token}`. */
const DETAILS_TIMEOUT_MS = 10_000;
/** How long MAX's video server may take to start sending a file, and to send the next part of it. */
const DOWNLOAD_TIMEOUT_MS = 30_000;
/** Redirects of MAX's video server followed before giving up. */
const MAX_REDIRECTS = 3;

export interface MaxFileDeps {
  apiUrl: string;
  publicUrl: string;
  /** Signs the links (a key of its own, derived from SECRET_KEY). */
  linkKey: Buffer;
  store: Pick<Store, 'channels'>;
  cipher: CredentialsCipher;
  /**
   * Fetches the videos from the addresses MAX gives (and those its servers redirect to): a guarded agent, since
   * the gateway would otherwise fetch whatever an answer pointed it at. Undici's own agent when unset (tests).
   */
  agent?: Dispatcher;
}

/** What `GET /videos/{token}` answers, as far as it is read: the addresses of the video's renditions (`mp4_1080`, `mp4_720`…, `hls`). */
interface VideoDetails {
  token?: string;
  urls?: Record<string, unknown> | null;
}

/** The largest MP4 rendition MAX gives (`mp4_<height>`); null when it gives none (still processing, or only HLS). */
export function bestMp4Of(details: VideoDetails | null | undefined): string | null {
  const urls = details && typeof details.urls === 'object' && details.urls !== null ? details.urls : {};
  const found = Object.entries(urls)
    .map(([key, url]) => ({ height: Number(/^mp4_(\d+)$/.exec(key)?.[1] ?? NaN), url }))
    .filter((x): x is { height: number; url: string } => Number.isFinite(x.height) && typeof x.url === 'string' && /^https?:\/\//i.test(x.url))
    .sort((a, b) => b.height - a.height);
  return found[0]?.url ?? null;
}

/**
 * A customer's videos stay at MAX, whose direct addresses for them come only from a call with the bot's token
 * (`GET /videos/{token}`). The gateway gives each video a link of its own instead:
 * `${PUBLIC_URL}/hooks/maxbot/<channel>/files/<video token>?signature=…`, signed so that it can be neither forged
 * nor pointed at another video or channel. Opening it asks MAX for the video's addresses, takes the largest MP4,
 * and streams it from MAX's video server. It is streamed rather than redirected to: MAX's address is signed and
 * expiring, and may be bound to whoever asked for it (the gateway), and streaming keeps the link's answer (its type,
 * sandbox and caching) the same as for Telegram's files. Like the tokens they name, the links do not expire; anyone
 * holding one may download, as with a presigned URL.
 */
export function maxFiles(deps: MaxFileDeps) {
  const links = fileLinks(deps.linkKey, deps.publicUrl, 'maxbot');
  const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'MAX could not give the video; try again');
  // Kept briefly: long enough for a player's requests while a video is watched, short of MAX's signed addresses' expiry.
  const videoAddresses = resolvedAddresses({ ttlMs: 2 * 60_000 });

  /** The video at MAX's address (the part `range` names, if any), following its server's redirects: null when it is gone. */
  async function download(url: string, range: string | null): Promise<MessengerFile | MessengerFileRangeNotSatisfiable | null> {
    const got = await downloadFromPlatform(url, range, { timeoutMs: DOWNLOAD_TIMEOUT_MS, unavailable, maxRedirects: MAX_REDIRECTS, ...(deps.agent ? { dispatcher: deps.agent } : {}) });
    if (!got || 'rangeNotSatisfiable' in got) return got;
    const { toldType, ...file } = got;
    return { ...file, contentType: toldType && /^video\/[\w.+-]+$/.test(toldType) ? toldType : 'video/mp4' };
  }

  return {
    /** The gateway's link to the video `videoToken`, as a customer's message in the channel named it. */
    link(channelId: string, videoToken: string): string {
      return links.url(channelId, videoToken);
    },

    /**
     * The video behind a link: `forbidden` for a link that is not one of ours, null for a video MAX no longer
     * gives (it refuses the token, the channel's bot, or has no MP4 of it). MAX out of reach or failing is a 503.
     * A single range in `rangeHeader` (the client's `Range`) is asked of MAX's video server, whose part is handed on.
     */
    async open(channelId: string, videoToken: string, signature: string, rangeHeader?: string): Promise<MessengerFile | MessengerFileRangeNotSatisfiable | 'forbidden' | null> {
      if (!links.verify(channelId, videoToken, signature)) return 'forbidden';
      const channel = await deps.store.channels.getById(channelId);
      const token = tokenFrom(deps.cipher, channel?.credentials, 'access_token');
      if (token === null) return null;
      const range = forwardedRange(rangeHeader);
      return videoAddresses.open(
        { channelId, fileId: videoToken, bot: botKeyOf(token) },
        async () => {
          let details: VideoDetails;
          try {
            details = await maxApi(deps.apiUrl, token, DETAILS_TIMEOUT_MS).call<VideoDetails>('GET', `/videos/${encodeURIComponent(videoToken)}`);
          } catch (err) {
            // A refusal (not found, not this bot's, a token MAX no longer takes) will not pass; a timeout, a wait or MAX's own failure may.
            const refused = err instanceof MaxApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
            if (refused) return null;
            throw unavailable();
          }
          return bestMp4Of(details);
        },
        (address) => download(address, range),
      );
    },
  };
}

export type MaxFiles = ReturnType<typeof maxFiles>;

/** Which kind of upload a file is, by its type. */
export function uploadTypeOf(mimetype: string | null | undefined): UploadType {
  if (mimetype && /^image\/(jpeg|png|webp|gif|heic|bmp)$/.test(mimetype)) return 'image';
  if (mimetype?.startsWith('video/')) return 'video';
  if (mimetype?.startsWith('audio/')) return 'audio';
  return 'file';
}

/** What a send's file transfer is given: the shared source options, and the largest file (UPLOAD_LIMIT_BYTES unless a test says). */
export interface TransferOptions extends SourceOptions {
  limitBytes?: number;
}

/**
 * Uploads the file at `url` to MAX for one message: MAX gives an upload address (`POST /uploads?type=…`), the
 * bytes go there as they arrive from the source, and the answer (or for video and audio the upload address's own
 * token) is what the message attaches. The source is closed however the upload ends.
 */
export async function uploadFrom(
  api: MaxApi,
  file: { url: string; name?: string; mimetype?: string },
  options: TransferOptions,
): Promise<{ type: UploadType; payload: UploadedPayload }> {
  const limitBytes = options.limitBytes ?? UPLOAD_LIMIT_BYTES;
  const name = uploadNameOf(file);
  const source = await fetchSource(file.url, options, limitBytes, 'MAX');
  try {
    const contentType = sourceTypeOf(file, source);
    const type = uploadTypeOf(contentType);
    const endpoint = await api.call<UploadEndpoint>('POST', '/uploads', { query: { type }, ...(options.signal ? { signal: options.signal } : {}) });
    if (typeof endpoint?.url !== 'string' || !/^https?:\/\//i.test(endpoint.url)) throw new TransferFailed('MAX gave no upload address');
    const form = multipart({}, { field: 'data', name, contentType: contentType ?? 'application/octet-stream', source }, limitBytes, 'MAX');
    let answer: unknown;
    try {
      const res = await undici().request(endpoint.url, {
        method: 'POST',
        headers: form.headers,
        body: form.body,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) {
        // A timeout, too many uploads or MAX's own failure may pass; any other refusal is of the file itself.
        const passing = res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500 || res.statusCode < 400;
        throw passing ? new TransferFailed(`MAX's upload server answered ${res.statusCode}`) : new UploadRefused(`MAX's upload server refused the file (${res.statusCode})`);
      }
      answer = text ? JSON.parse(text) : {};
    } catch (err) {
      if (form.overLimit()) throw new FileTooLarge(`the file is over ${limitBytes} bytes, which MAX does not take`);
      if (err instanceof SourceRefused || err instanceof TransferFailed || err instanceof UploadRefused || err instanceof FileTooLarge) throw err;
      throw new TransferFailed(`the upload to MAX failed: ${err instanceof Error ? err.name : 'error'}`);
    }
    const said = (answer ?? {}) as { token?: unknown; photos?: unknown };
    if (endpoint.token) return { type, payload: { token: endpoint.token } };
    if (typeof said.token === 'string') return { type, payload: { token: said.token } };
    if (typeof said.photos === 'object' && said.photos !== null) return { type, payload: { photos: said.photos as Record<string, { token: string }> } };
    throw new TransferFailed('MAX did not give the uploaded file a token');
  } finally {
    discard(source.body);
  }
}
