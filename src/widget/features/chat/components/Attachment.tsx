import type { Attachment as AttachmentData } from '../../../../contract/messages.ts';
import { useLang } from '@/lib/i18n.ts';
import { words } from '../words.ts';
import { DocumentCard } from './DocumentCard.tsx';
import { MediaThumb } from './MediaThumb.tsx';

/**
 * What kind of file an attachment is: by its type when it has one (an `audio/webm` voice note is a sound, though
 * `.webm` names videos too), else by its name's ending.
 */
export function mediaKind(a: Pick<AttachmentData, 'mimetype' | 'name'>): 'image' | 'video' | 'audio' | 'file' {
  const type = (a.mimetype ?? '').toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type !== '' && type !== 'application/octet-stream') return 'file';
  const ext = (a.name ?? '').split('.').pop()?.toLowerCase() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return 'image';
  if (['mp4', 'webm', 'mov'].includes(ext)) return 'video';
  if (['mp3', 'ogg', 'oga', 'opus', 'm4a', 'wav'].includes(ext)) return 'audio';
  return 'file';
}

/** A size as people read it: 900 B, 14 KB, 3.2 MB. */
export function fileSize(bytes: number, lang: string): string {
  const units = lang === 'ru' ? ['Б', 'КБ', 'МБ', 'ГБ'] : ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${n.toLocaleString(lang, { maximumFractionDigits: u > 1 ? 1 : 0 })} ${units[u]}`;
}

/**
 * A message's file: pictures and videos shown in place (pressed, they open in the viewer), sounds with a player,
 * documents as cards with their name, size and kind. A file still uploading has no address yet: its card alone.
 */
export function Attachment({ attachment: a }: { attachment: AttachmentData }) {
  const lang = useLang();
  const name = a.name ?? words[lang].chat.attachment;
  const kind = mediaKind(a);
  if (a.url && (kind === 'image' || kind === 'video')) return <MediaThumb url={a.url} name={name} kind={kind} />;
  if (a.url && kind === 'audio') return <audio src={a.url} controls preload="none" className="mb-1 max-w-full" aria-label={name} />;
  return <DocumentCard attachment={a} name={name} />;
}
