import { lazy, Suspense, useRef, useState } from 'react';
import { IconButton } from '@/components/ui/Button.tsx';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useWords } from '@/lib/i18n.ts';
import { words } from '../words.ts';
import { NewChatIcon } from './icons.tsx';

// Started now and then: the dialog loads on first use.
const NewChatDialog = lazy(() => import('./NewChatDialog.tsx'));

/** "New chat" beside the list's search; a card's frame is held to the card's contacts and has none. */
export function NewChatButton() {
  const w = useWords(words).list;
  const { session } = useEmbed();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (session.kind !== 'chats' || session.scope !== 'global') return null;
  return (
    <>
      <IconButton ref={button} className="grid size-9 flex-none place-items-center" aria-label={w.newChat} title={w.newChat} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <NewChatIcon />
      </IconButton>
      {open && (
        <Suspense fallback={null}>
          <NewChatDialog
            onClose={() => {
              setOpen(false);
              requestAnimationFrame(() => button.current?.focus());
            }}
          />
        </Suspense>
      )}
    </>
  );
}
