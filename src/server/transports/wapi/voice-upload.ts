import type { Attachment } from '../../../contract/messages.ts';
import type { GraphApi } from '../meta/graph-api.ts';
import { fetchSource, readWhole, uploadNameOf } from '../file-source.ts';
import { isWebmSound, OGG_OPUS, oggNameOf, oggOpusOf } from '../voice-note.ts';
import { isMetaId, type WhatsAppDeps } from './account.ts';

/** Meta takes audio of up to 16 MB (documented, "Supported media types"). */
const AUDIO_LIMIT_BYTES = 16 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 12_500;

/**
 * A voice note a browser recorded as WebM, made one Meta takes. Meta fetches a send's file by its link itself, and
 * takes a sound only as AAC, AMR, MP3, M4A or Ogg with Opus: a WebM would go as a document. So the gateway fetches
 * it, moves its Opus into Ogg (voice-note.ts), uploads it to the number's media (`POST /{phone_number_id}/media`:
 * `messaging_product`, `type` and `file`, as a form; documented, "Upload Media") and the send names the upload by the
 * `id` Meta answers. Null for any other file (it goes by its link), and where the gateway fetches no files for sends.
 */
export async function voiceNoteMediaId(deps: Pick<WhatsAppDeps, 'sendFiles'>, api: GraphApi, phoneNumberId: string, attachment: Attachment, signal: AbortSignal): Promise<string | null> {
  if (!deps.sendFiles || !isWebmSound(attachment.mimetype)) return null;
  const fetched = await fetchSource(attachment.url, { agent: deps.sendFiles.agent, allowLoopback: deps.sendFiles.allowLoopback, timeoutMs: FETCH_TIMEOUT_MS, signal }, AUDIO_LIMIT_BYTES, 'WhatsApp');
  const voice = await oggOpusOf(await readWhole(fetched, AUDIO_LIMIT_BYTES, 'WhatsApp'));
  // Not Opus alone: the file goes by its link, as any other.
  if (!voice) return null;
  const file = { field: 'file', name: oggNameOf(uploadNameOf(attachment)), contentType: OGG_OPUS, bytes: Buffer.from(voice) };
  const uploaded = await api.call<{ id?: unknown }>('POST', `/${phoneNumberId}/media`, { form: { fields: { messaging_product: 'whatsapp', type: OGG_OPUS }, file } });
  return isMetaId(uploaded.id) ? uploaded.id : null;
}
