import type { AnyMessageContent } from 'baileys';
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import type { Attachment } from '../../../contract/messages.ts';
import type { Store } from '../../core/ports.ts';
import { keepReceivedFile, type UploadDeps } from '../../core/uploads/uploads.ts';
import { fetchSource, readWhole, sourceTypeOf, uploadNameOf } from '../file-source.ts';
import type { KeepFile } from './inbound.ts';
import { isWebmSound, oggOpusOf } from '../voice-note.ts';
import type { WaSocket } from './wa-socket.ts';

/**
 * Files both ways. WhatsApp's media are encrypted on its servers under keys only the message carries, and its links
 * lapse: a customer's file is downloaded (and decrypted) by the session as it arrives and kept as an upload, behind
 * the gateway's signed `/files/…` link, for as long as uploads are kept. A file a send names is fetched through the
 * gateway's guarded agent and handed to the library, which encrypts and uploads it.
 */

/** Files larger than this are not taken either way: the gateway holds a file in memory while it passes. */
export const WHATSAPP_FILE_LIMIT_BYTES = 50 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

/**
 * The ids of the files this process is sending or sent lately. The library reports each message it sends as an
 * upsert of the account's own, at once, before the send's answer is recorded: its file is the gateway's already, and
 * is not downloaded back (the send records the message).
 */
export const ownFileSends = () => new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });
export type OwnFileSends = ReturnType<typeof ownFileSends>;

export interface InboundFileDeps {
  store: Pick<Store, 'channels' | 'chats' | 'messages'>;
  /** Where customers' files are kept (beside the chat frame's uploads, outside the daily quota). */
  uploads: UploadDeps;
  ownSends: OwnFileSends;
  log(err: unknown, message: string): void;
}

/** Keeps the files of one channel's messages, downloaded through its session's socket. */
export function inboundFiles(deps: InboundFileDeps, channelId: string, socket: WaSocket): KeepFile {
  let accountId: string | null = null;
  return async (message, chat, media) => {
    if (message.key.fromMe && deps.ownSends.has(message.key.id!)) return 'recorded';
    // A message WhatsApp delivers again (history after a reconnect) is not downloaded again.
    const known = await deps.store.chats.findByMessengerId(channelId, chat.chatType, chat.chatId);
    if (known && (await deps.store.messages.findByMessengerId(known.id, message.key.id!))) return 'recorded';
    if (media.size !== null && media.size > WHATSAPP_FILE_LIMIT_BYTES) {
      deps.log(null, `a WhatsApp ${media.kind} of ${media.size} bytes is over what the gateway keeps; its caption alone is recorded`);
      return null;
    }
    try {
      accountId ??= (await deps.store.channels.getById(channelId))?.accountId ?? null;
      if (!accountId) return null;
      const content = await socket.downloadMedia(message);
      return await keepReceivedFile(deps.uploads, accountId, { name: media.name, type: media.mimetype, content });
    } catch (err) {
      deps.log(err, `a WhatsApp ${media.kind} could not be downloaded; its caption alone is recorded`);
      return null;
    }
  };
}

export interface OutboundFileDeps {
  filesAgent: Dispatcher;
  allowLoopbackFiles: boolean;
  ownSends: OwnFileSends;
}

/** The file a send names, fetched through the guarded agent, read up to the limit. */
async function fetched(deps: OutboundFileDeps, attachment: Attachment) {
  const source = await fetchSource(attachment.url, { agent: deps.filesAgent, allowLoopback: deps.allowLoopbackFiles, timeoutMs: FETCH_TIMEOUT_MS }, WHATSAPP_FILE_LIMIT_BYTES, 'WhatsApp');
  const bytes = await readWhole(source, WHATSAPP_FILE_LIMIT_BYTES, 'WhatsApp');
  return { bytes, type: sourceTypeOf(attachment, source) ?? 'application/octet-stream', name: uploadNameOf(attachment) };
}

/**
 * The file as the kind of message WhatsApp shows it as: a photo, a video, a voice note (Opus in Ogg, as WhatsApp
 * records them; Opus in WebM, as browsers record, is moved into Ogg), a song, or a document; with the message's
 * words as its caption where WhatsApp shows one.
 */
export async function outboundContent(deps: OutboundFileDeps, attachment: Attachment, caption: string | null): Promise<AnyMessageContent> {
  const file = await fetched(deps, attachment);
  const words = caption ? { caption } : {};
  const voice = isWebmSound(file.type) ? await oggOpusOf(file.bytes) : null;
  if (voice) return { audio: Buffer.from(voice), mimetype: 'audio/ogg; codecs=opus', ptt: true };
  if (/^image\/(jpeg|png)$/.test(file.type)) return { image: file.bytes, mimetype: file.type, ...words };
  if (file.type.startsWith('video/')) return { video: file.bytes, mimetype: file.type, ...words };
  if (file.type === 'audio/ogg' || file.type === 'audio/opus') return { audio: file.bytes, mimetype: 'audio/ogg; codecs=opus', ptt: true };
  if (file.type.startsWith('audio/')) return { audio: file.bytes, mimetype: file.type };
  return { document: file.bytes, mimetype: file.type, fileName: file.name, ...words };
}
