/** A document VK saved for a dialog (`docs.save`), as its messages carry it later. */
export interface SavedDoc {
  title: string;
  size: number;
  ext: string;
}

/**
 * The attachments of a message as VK's events carry them (messages_message_attachment), from what `messages.send`
 * named (`attachment`: a comma-separated list of `photo<owner>_<id>[_<access key>]` and `doc<owner>_<id>`): a photo
 * with its sizes, a document with its title, size and address, both on the emulator's own server. Anything else is
 * left out, as VK leaves out what it does not know.
 */
export function sentAttachments(attachment: string | null, base: string, docs: ReadonlyMap<number, SavedDoc>, date: number): unknown[] {
  if (!attachment) return [];
  return attachment.split(',').flatMap((item): unknown[] => {
    const photo = /^photo(-?\d+)_(\d+)(?:_(\w+))?$/.exec(item);
    if (photo) {
      const [owner, id] = [Number(photo[1]), Number(photo[2])];
      const sizes = [{ type: 'x', url: `${base}/photos/${id}.jpg`, width: 604, height: 453 }];
      return [{ type: 'photo', photo: { id, album_id: -3, owner_id: owner, date, has_tags: false, ...(photo[3] ? { access_key: photo[3] } : {}), sizes } }];
    }
    const doc = /^doc(-?\d+)_(\d+)$/.exec(item);
    const saved = doc ? docs.get(Number(doc[2])) : undefined;
    if (doc && saved) return [{ type: 'doc', doc: { id: Number(doc[2]), owner_id: Number(doc[1]), title: saved.title, size: saved.size, ext: saved.ext, date, type: 1, url: `${base}/docs/${doc[2]}` } }];
    return [];
  });
}
