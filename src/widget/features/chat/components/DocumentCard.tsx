import type { Attachment } from '../../../../contract/messages.ts';
import { useLang, useWords } from '@/lib/i18n.ts';
import { mediaWords } from '../media-words.ts';
import { documentKind, extensionMark } from '../store/media.ts';
import { fileSize } from './Attachment.tsx';
import { PaperclipIcon } from './icons.tsx';

/**
 * A document as a card: a mark with its ending (PDF, DOCX), its name, its size and kind, and a download link. The
 * link is read as one short sentence ("Download invoice.pdf, PDF document, 120 KB"), not as its address or its
 * mark: its words are what it shows, with "Download" and a pause said only to a screen reader. A file still
 * uploading has no address yet: the card without the link.
 */
export function DocumentCard({ attachment: a, name }: { attachment: Attachment; name: string }) {
  const lang = useLang();
  const w = useWords(mediaWords);
  const details = [w.kinds[documentKind(a)], a.size !== undefined ? fileSize(a.size, lang) : null].filter(Boolean).join(', ');
  const mark = extensionMark(a.name);
  const card = (
    <>
      <span className="grid size-10 flex-none place-items-center rounded-md bg-selected text-[11px] font-bold text-accent" aria-hidden="true">
        {mark || <PaperclipIcon className="size-5" />}
      </span>
      <span className="grid min-w-0 flex-1">
        <span className="truncate font-semibold text-text">
          {a.url && <span className="sr-only">{w.download} </span>}
          {name}
          <span className="sr-only">, </span>
        </span>
        <span className="truncate text-xs text-muted">{details}</span>
      </span>
    </>
  );
  const frame = 'gw-document mb-1 flex min-w-48 max-w-full items-center gap-2.5 rounded-md border border-line bg-panel/60 p-2 no-underline';
  return a.url ? (
    <a className={`${frame} hover:bg-selected`} href={a.url} target="_blank" rel="noreferrer noopener" download={a.name ?? true}>
      {card}
    </a>
  ) : (
    <span className={`${frame} opacity-75`}>{card}</span>
  );
}
