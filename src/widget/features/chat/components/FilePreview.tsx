import { useEffect, useState } from 'react';
import { LinkButton } from '@/components/ui/Button.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { viewWords } from '../view-words.ts';
import { fileSize, mediaKind } from './Attachment.tsx';
import { PaperclipIcon } from './icons.tsx';

/** A file waiting to be sent: a picture shown small, any file by name and size, and a way to take it back. */
export function FilePreview({ file, onCancel }: { file: File; onCancel(): void }) {
  const lang = useLang();
  const w = useWords(viewWords).composer;
  const [url, setUrl] = useState<string | null>(null);
  const image = mediaKind({ mimetype: file.type, name: file.name }) === 'image';
  useEffect(() => {
    if (!image) return;
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file, image]);
  return (
    <div className="mb-1.5 flex items-center gap-2 rounded-md border border-line p-1.5" role="group" aria-label={w.fileLabel(file.name)}>
      {url ? <img src={url} alt="" className="size-12 flex-none rounded object-cover" /> : <PaperclipIcon className="size-5" />}
      <span className="min-w-0 flex-1">
        <span className="block truncate">{file.name}</span>
        <span className="block text-xs text-muted">{fileSize(file.size, lang)}</span>
      </span>
      <LinkButton onClick={onCancel} aria-label={w.removeFile(file.name)}>
        {w.cancel}
      </LinkButton>
    </div>
  );
}
