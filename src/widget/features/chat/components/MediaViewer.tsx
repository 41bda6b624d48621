import { useEffect, useRef, useState } from 'react';
import { buttonClass, IconButton } from '@/components/ui/Button.tsx';
import { useWords } from '@/lib/i18n.ts';
import { mediaWords } from '../media-words.ts';
import { useViewer, type MediaItem } from '../store/media.ts';

const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4] as const;
const FIT = ZOOMS.indexOf(1);

/**
 * The chat's pictures and videos, one at a time over the frame: zoom (buttons, + and −), the previous and the next
 * (buttons, ← and →), download, and Escape or Close to go back to the message it was opened from.
 */
export default function MediaViewer({ items }: { items: readonly MediaItem[] }) {
  const w = useWords(mediaWords);
  const url = useViewer((s) => s.url);
  const opener = useViewer((s) => s.opener);
  const closeViewer = useViewer((s) => s.close);
  const [zoom, setZoom] = useState(FIT);
  /** The picture's width when it fits the window, which zooming multiplies. */
  const [fitted, setFitted] = useState<number | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const at = Math.max(0, items.findIndex((i) => i.url === url));
  const item = items[at];

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  useEffect(() => setZoom(FIT), [url]);

  const close = () => {
    dialog.current?.close();
    closeViewer();
    requestAnimationFrame(() => opener instanceof HTMLElement && opener.isConnected && opener.focus());
  };
  const go = (step: number) => {
    const next = items[at + step];
    if (next) useViewer.setState({ url: next.url });
  };
  if (!item) return null;
  const name = item.name ?? item.url.split('/').pop() ?? '';
  const scale = ZOOMS[zoom]!;

  return (
    <dialog
      ref={dialog}
      className="m-0 flex h-full max-h-none w-full max-w-none flex-col border-0 bg-black/90 p-0 text-white backdrop:bg-black/60"
      aria-label={w.viewer(name)}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') go(-1);
        else if (e.key === 'ArrowRight') go(1);
        else if ((e.key === '+' || e.key === '=') && item.kind === 'image') setZoom((z) => Math.min(ZOOMS.length - 1, z + 1));
        else if (e.key === '-' && item.kind === 'image') setZoom((z) => Math.max(0, z - 1));
        else return;
        e.preventDefault();
      }}
    >
      <div className="flex flex-wrap items-center gap-1 px-3 py-2">
        <p className="m-0 min-w-0 flex-1 truncate text-sm">
          {name} <span className="text-white/70">· {w.position(at + 1, items.length)}</span>
        </p>
        {item.kind === 'image' && (
          <>
            <IconButton className="size-9 text-white!" aria-label={w.zoomOut} title={w.zoomOut} disabled={zoom === 0} onClick={() => setZoom(zoom - 1)}>
              −
            </IconButton>
            <IconButton className="min-w-12 text-xs text-white!" aria-label={w.actualSize(Math.round(scale * 100))} onClick={() => setZoom(FIT)}>
              {Math.round(scale * 100)}%
            </IconButton>
            <IconButton className="size-9 text-white!" aria-label={w.zoomIn} title={w.zoomIn} disabled={zoom === ZOOMS.length - 1} onClick={() => setZoom(zoom + 1)}>
              +
            </IconButton>
          </>
        )}
        <a className={`${buttonClass('plain', 'small')} bg-transparent! text-white!`} href={item.url} download={item.name ?? true} target="_blank" rel="noreferrer noopener">
          {w.download}
        </a>
        <IconButton className="size-9 text-white!" aria-label={w.close} title={w.close} autoFocus onClick={close}>
          ✕
        </IconButton>
      </div>
      <div className="relative flex min-h-0 flex-1 items-center-safe justify-center-safe overflow-auto">
        {item.kind === 'image' ? (
          <img
            key={item.url}
            src={item.url}
            alt={name}
            className={`flex-none object-contain ${zoom === FIT || fitted === null ? 'max-h-full max-w-full' : ''}`}
            // Zoomed, the picture takes its room (a transform would not), so the area scrolls to every part of it.
            style={zoom === FIT || fitted === null ? undefined : { width: `${Math.round(fitted * scale)}px` }}
            onLoad={(e) => setFitted(e.currentTarget.clientWidth || null)}
          />
        ) : (
          <video key={item.url} src={item.url} controls autoPlay className="max-h-full max-w-full" aria-label={name} />
        )}
      </div>
      <div className="flex justify-between gap-2 px-3 py-2">
        <IconButton className="px-3 text-white!" aria-label={w.previous} disabled={at === 0} onClick={() => go(-1)}>
          ← {w.previous}
        </IconButton>
        <IconButton className="px-3 text-white!" aria-label={w.next} disabled={at === items.length - 1} onClick={() => go(1)}>
          {w.next} →
        </IconButton>
      </div>
    </dialog>
  );
}
