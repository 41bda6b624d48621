import { typeByName } from '../bot-common.ts';
import { FileTooLarge, TransferFailed, UploadRefused, discard, fetchSource, multipart, sourceTypeOf, uploadNameOf, type SourceOptions } from '../file-source.ts';
import { refusesFile } from './avito-failures.ts';

/**
 * Avito's messenger carries pictures only: `POST /messenger/v1/accounts/{user_id}/uploadImages` takes one JPEG, HEIC,
 * GIF, BMP or PNG of at most 24 MB (and 75 megapixels) as the form field `uploadfile[]`, and answers
 * `{"<image id>": {"<W>x<H>": url…}}`; the picture is then sent by its id (developers.avito.ru, "Мессенджер").
 */

/** The types Avito takes, as an upload's `Content-Type` names them. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/heic', 'image/heif']);

/** Told by a file's name where neither the send nor its server gives a type. */
const typesByExtension: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['bmp', 'image/bmp'],
  ['heic', 'image/heic'],
  ['heif', 'image/heif'],
]);

/** Extensions of what is surely no picture (documents, sound, video, archives): such a file is refused by its name. */
const notPictures: ReadonlyMap<string, string> = new Map(
  ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'txt', 'csv', 'rtf', 'zip', 'rar', '7z', 'mp3', 'm4a', 'ogg', 'wav', 'mp4', 'mov', 'avi', 'webm', 'mkv'].map((ext) => [ext, ext]),
);

/** "24 МБ" in Avito's words: the lower reading of it. */
export const IMAGE_LIMIT_BYTES = 24_000_000;

/** A file Avito's messenger cannot carry (not one of its picture types): refused without asking Avito. */
export class NotAnImage extends Error {
  constructor(type: string | null) {
    super(`Avito's messenger carries only JPEG, PNG, GIF, BMP and HEIC pictures, not ${type ?? 'a file of unknown type'}`);
    this.name = 'NotAnImage';
  }
}

/**
 * The type a file is by the send's words alone: its `mimetype`, else a picture's type by its name's or address's
 * extension, or that extension (`.pdf`) where it is surely no picture; null when they do not say.
 */
function declaredType(file: { url: string; name?: string; mimetype?: string }): string | null {
  if (file.mimetype) return file.mimetype.toLowerCase();
  let path = '';
  try {
    path = new URL(file.url).pathname;
  } catch {
    // Not fetched at all: the fetch refuses it.
  }
  for (const name of [file.name, path]) {
    const type = typeByName(name, typesByExtension) ?? (typeByName(name, notPictures) && `.${typeByName(name, notPictures)}`);
    if (type) return type;
  }
  return null;
}

/**
 * Refuses a file the send names as something other than a picture before anything is fetched (a file whose type
 * the send does not tell is fetched, and told by its server's type).
 */
export function assertPictureByName(file: { url: string; name?: string; mimetype?: string }): void {
  const type = declaredType(file);
  if (type !== null && !IMAGE_TYPES.has(type)) throw new NotAnImage(type);
}

/** Calls Avito's upload for the account: `POST …/uploadImages` with the form, as the account's other calls are made. */
export type UploadCall = (form: ReturnType<typeof multipart>) => Promise<unknown>;

/**
 * Fetches the picture a send names from the CRM (through the guarded agent) and uploads it to Avito as it arrives:
 * Avito's id for it. The source is closed however the upload ends.
 */
export async function uploadPicture(file: { url: string; name?: string; mimetype?: string }, options: SourceOptions, upload: UploadCall): Promise<string> {
  assertPictureByName(file);
  const source = await fetchSource(file.url, options, IMAGE_LIMIT_BYTES, 'Avito');
  try {
    const type = sourceTypeOf(file, source) ?? declaredType(file);
    if (type === null || !IMAGE_TYPES.has(type.toLowerCase())) throw new NotAnImage(type);
    const form = multipart({}, { field: 'uploadfile[]', name: uploadNameOf(file), contentType: type, source }, IMAGE_LIMIT_BYTES, 'Avito');
    let answer: unknown;
    try {
      answer = await upload(form);
    } catch (err) {
      if (form.overLimit()) throw new FileTooLarge(`the picture is over ${IMAGE_LIMIT_BYTES} bytes, which Avito does not take`);
      if (refusesFile(err)) throw new UploadRefused(`Avito refused the picture (${err instanceof Error ? err.message : 'refused'})`);
      throw err;
    }
    const id = typeof answer === 'object' && answer !== null ? Object.keys(answer)[0] : undefined;
    if (!id) throw new TransferFailed('Avito did not give the uploaded picture an id');
    return id;
  } finally {
    discard(source.body);
  }
}
