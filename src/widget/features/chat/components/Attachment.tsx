import type { Attachment as AttachmentData } from '../../../../contract/messages.ts';
import { useLang } from '@/lib/i18n.ts';
import { words } from '../words.ts';
import { PaperclipIcon } from './icons.tsx';

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
 * A message's file: pictures and videos shown in place (a picture opens full size in a new tab), sounds with a
 * player, other files by name, size and type. A file still uploading has no address yet: its name alone.
 */
export function Attachment({ attachment: a }: { attachment: AttachmentData }) {
  const lang = useLang();
  const name = a.name ?? words[lang].chat.attachment;
  const kind = mediaKind(a);
  if (a.url && kind === 'image')
    return (
      <a href={a.url} target="_blank" rel="noreferrer noopener" className="mb-1 block">
        <img src={a.url} alt={name} loading="lazy" className="max-h-64 min-h-16 min-w-24 max-w-full rounded-md object-contain" />
      </a>
    );
  if (a.url && kind === 'video') return <video src={a.url} controls preload="metadata" className="mb-1 max-h-64 max-w-full rounded-md" aria-label={name} />;
  if (a.url && kind === 'audio') return <audio src={a.url} controls preload="none" className="mb-1 max-w-full" aria-label={name} />;
  const details = [a.size !== undefined ? fileSize(a.size, lang) : null, a.mimetype ?? null].filter(Boolean).join(' · ');
  const body = (
    <>
      <PaperclipIcon className="size-4 align-[-3px]" /> <span className="underline-offset-2">{name}</span>
      {details && <span className="ml-1 text-xs text-muted">{details}</span>}
    </>
  );
  return a.url ? (
    <a className="text-accent" href={a.url} target="_blank" rel="noreferrer noopener">
      {body}
    </a>
  ) : (
    <span className="text-muted">{body}</span>
  );
}
