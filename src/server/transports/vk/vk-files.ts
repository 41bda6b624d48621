import type { Attachment } from '../../../contract/messages.ts';
import { typeByName } from '../bot-common.ts';
import { FileTooLarge, TransferFailed, UploadRefused, discard, fetchSource, multipart, sourceTypeOf, uploadNameOf, type SourceOptions } from '../file-source.ts';
import type { CommunityApi } from './vk-community.ts';

/**
 * A file a send names, uploaded to VK for the dialog (dev.vk.com, "Загрузка файлов"): a JPEG, PNG or GIF as a photo
 * (`photos.getMessagesUploadServer` with the `peer_id`, the file posted to its `upload_url` as the form field
 * `photo`, answering `{server, photo, hash}`, then `photos.saveMessagesPhoto`, answering `[{id, owner_id,
 * access_key}]`), anything else as a document (`docs.getMessagesUploadServer` with `type=doc` and the `peer_id`, the
 * form field `file`, answering `{file}`, then `docs.save` with a `title`, answering `{type: 'doc', doc: {id,
 * owner_id}}`); either is sent as `messages.send`'s `attachment`: `photo<owner>_<id>[_<access key>]`,
 * `doc<owner>_<id>`. VK takes photos of up to 50 MB and documents of up to 200 MB (documented).
 */

export const PHOTO_LIMIT_BYTES = 50 * 1024 * 1024;
export const DOC_LIMIT_BYTES = 200 * 1024 * 1024;

const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);
const photoTypesByName: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
]);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const numberOf = (x: unknown): string | null => (typeof x === 'number' && Number.isSafeInteger(x) ? String(x) : null);

/** An upload server's refusal: `{error: …}` in its answer. */
function refusedUpload(answer: unknown): boolean {
  return isObject(answer) && answer.error !== undefined && answer.error !== null && answer.error !== '';
}

/** Whether the file goes as a photo: by the send's type, else its name's or address's, else its server's. */
function isPhoto(file: Attachment, serverType: string | null): boolean {
  let path = '';
  try {
    path = new URL(file.url).pathname;
  } catch {
    // Not fetched at all: the fetch refuses it.
  }
  const type = file.mimetype ?? typeByName(file.name ?? path, photoTypesByName) ?? serverType;
  return type !== null && PHOTO_TYPES.has(type.toLowerCase());
}

/** The file uploaded for the dialog `peerId`: the `attachment` a send names it by. The source is closed however it ends. */
export async function uploadFile(api: CommunityApi, peerId: string, file: Attachment, options: SourceOptions): Promise<string> {
  // A size the send declares is checked before anything is fetched, against the larger limit; the kind's after.
  if (file.size !== undefined && file.size > DOC_LIMIT_BYTES) throw new FileTooLarge(`the file is ${file.size} bytes; VK takes documents of at most ${DOC_LIMIT_BYTES}`);
  const source = await fetchSource(file.url, options, DOC_LIMIT_BYTES, 'VK');
  try {
    const type = sourceTypeOf(file, source);
    const photo = isPhoto(file, type);
    const limit = photo ? PHOTO_LIMIT_BYTES : DOC_LIMIT_BYTES;
    const declared = file.size ?? source.length;
    if (declared !== null && declared > limit) throw new FileTooLarge(`the file is ${declared} bytes; VK takes ${photo ? 'photos' : 'documents'} of at most ${limit}`);
    const server = await api.call<{ upload_url?: unknown }>(photo ? 'photos.getMessagesUploadServer' : 'docs.getMessagesUploadServer', {
      peer_id: peerId,
      ...(photo ? {} : { type: 'doc' }),
    });
    if (typeof server?.upload_url !== 'string') throw new TransferFailed('VK gave no upload address');
    const name = uploadNameOf(file);
    const form = multipart({}, { field: photo ? 'photo' : 'file', name, contentType: type ?? 'application/octet-stream', source }, limit, 'VK');
    let uploaded: unknown;
    try {
      uploaded = await api.upload(server.upload_url, form);
    } catch (err) {
      if (form.overLimit()) throw new FileTooLarge(`the file is over ${limit} bytes, which VK does not take`);
      throw err;
    }
    if (refusedUpload(uploaded) || !isObject(uploaded)) throw new UploadRefused('VK’s upload server refused the file');
    if (photo) {
      if (typeof uploaded.photo !== 'string' || uploaded.photo === '[]') throw new UploadRefused('VK took no photo from the file');
      const saved = await api.call<unknown>('photos.saveMessagesPhoto', { photo: uploaded.photo, server: uploaded.server as number, hash: String(uploaded.hash ?? '') });
      const first = Array.isArray(saved) ? saved[0] : null;
      const id = isObject(first) ? numberOf(first.id) : null;
      const owner = isObject(first) ? numberOf(first.owner_id) : null;
      if (!id || !owner) throw new TransferFailed('VK saved the photo without its id');
      const key = isObject(first) && typeof first.access_key === 'string' && first.access_key ? `_${first.access_key}` : '';
      return `photo${owner}_${id}${key}`;
    }
    if (typeof uploaded.file !== 'string') throw new UploadRefused('VK took no document from the file');
    const saved = await api.call<unknown>('docs.save', { file: uploaded.file, title: name.slice(0, 128) });
    const doc = isObject(saved) && isObject(saved.doc) ? saved.doc : null;
    const id = doc ? numberOf(doc.id) : null;
    const owner = doc ? numberOf(doc.owner_id) : null;
    if (!id || !owner) throw new TransferFailed('VK saved the document without its id');
    return `doc${owner}_${id}`;
  } finally {
    discard(source.body);
  }
}
