import { useWords } from '@/lib/i18n.ts';
import { mediaWords } from '../media-words.ts';
import { useViewer } from '../store/media.ts';

/** A picture or a video in its message, small; pressing it opens the viewer on it. */
export function MediaThumb({ url, name, kind }: { url: string; name: string; kind: 'image' | 'video' }) {
  const w = useWords(mediaWords);
  const show = useViewer((s) => s.show);
  if (kind === 'video')
    return (
      <span className="mb-1 grid justify-items-start gap-1">
        <video src={url} controls preload="metadata" className="max-h-64 max-w-full rounded-md" aria-label={name} />
        <button type="button" className="cursor-pointer border-0 bg-transparent p-0 text-xs text-accent underline" onClick={() => show(url)}>
          {w.open(name)}
        </button>
      </span>
    );
  return (
    <button type="button" className="mb-1 block cursor-zoom-in border-0 bg-transparent p-0" aria-label={w.open(name)} onClick={() => show(url)}>
      <img src={url} alt={name} loading="lazy" className="max-h-64 min-h-16 min-w-24 max-w-full rounded-md object-contain" />
    </button>
  );
}
