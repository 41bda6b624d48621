import { create } from 'zustand';
import type { Attachment } from '../../../../contract/messages.ts';
import type { ChatMessage } from './message.ts';

/** A picture or a video of the open chat, as the viewer steps through them. */
export interface MediaItem {
  url: string;
  name: string | null;
  kind: 'image' | 'video';
}

/** What kind of file an attachment is, by its type first; a file without one by its name's ending. */
export function fileKind(a: Pick<Attachment, 'mimetype' | 'name'>): 'image' | 'video' | 'audio' | 'file' {
  const type = (a.mimetype ?? '').toLowerCase();
  if (type) {
    const major = type.split('/')[0];
    return major === 'image' || major === 'video' || major === 'audio' ? major : 'file';
  }
  const ext = (a.name ?? '').split('.').pop()?.toLowerCase() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return 'image';
  if (['mp4', 'webm', 'mov'].includes(ext)) return 'video';
  if (['mp3', 'ogg', 'oga', 'opus', 'm4a', 'wav'].includes(ext)) return 'audio';
  return 'file';
}

/** The chat's pictures and videos, oldest first, as the history shows them (deleted ones left out). */
export function mediaOf(messages: readonly ChatMessage[]): MediaItem[] {
  const items: MediaItem[] = [];
  for (const m of messages) {
    const a = m.attachment;
    if (!a?.url || m.deleted) continue;
    const kind = fileKind(a);
    if (kind === 'image' || kind === 'video') items.push({ url: a.url, name: a.name ?? null, kind });
  }
  return items;
}

/** Which file the viewer shows (by its address), and what had the focus before it opened. */
interface Viewer {
  url: string | null;
  opener: Element | null;
  show(url: string): void;
  close(): void;
}

export const useViewer = create<Viewer>((set) => ({
  url: null,
  opener: null,
  show: (url) => set({ url, opener: typeof document === 'undefined' ? null : document.activeElement }),
  close: () => set({ url: null, opener: null }),
}));

/** The kind of document, for its card: by its type, else its name's ending. */
export function documentKind(a: Pick<Attachment, 'mimetype' | 'name'>): 'pdf' | 'doc' | 'sheet' | 'slides' | 'archive' | 'text' | 'audio' | 'file' {
  const type = (a.mimetype ?? '').toLowerCase();
  const ext = (a.name ?? '').split('.').pop()?.toLowerCase() ?? '';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (type.includes('wordprocessing') || type === 'application/msword' || ['doc', 'docx', 'odt', 'rtf'].includes(ext)) return 'doc';
  if (type.includes('spreadsheet') || type === 'application/vnd.ms-excel' || type === 'text/csv' || ['xls', 'xlsx', 'ods', 'csv'].includes(ext)) return 'sheet';
  if (type.includes('presentation') || ['ppt', 'pptx', 'odp'].includes(ext)) return 'slides';
  if (type.includes('zip') || type.includes('compressed') || ['zip', 'rar', '7z', 'gz', 'tar'].includes(ext)) return 'archive';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('text/') || ext === 'txt') return 'text';
  return 'file';
}

/** The file's ending in capitals for the card's mark (PDF, DOCX), or nothing when it has none. */
export const extensionMark = (name: string | null | undefined): string => {
  const parts = (name ?? '').split('.');
  return parts.length > 1 ? parts.pop()!.slice(0, 4).toUpperCase() : '';
};
