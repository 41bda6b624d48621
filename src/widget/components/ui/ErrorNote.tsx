import type { ReactNode } from 'react';
import { IconButton } from './Button.tsx';

/** Something that went wrong, said where it happened; with `onDismiss`, the agent can put it away. */
export function ErrorNote({ children, onDismiss, dismissLabel, id, className = '' }: { children: ReactNode; onDismiss?: () => void; dismissLabel?: string; id?: string; className?: string }) {
  return (
    <div className={`flex items-start justify-between gap-2 rounded-md bg-danger-bg px-2.5 py-1.5 text-danger ${className}`} role="alert" id={id}>
      <span>{children}</span>
      {onDismiss && (
        <IconButton className="text-danger" aria-label={dismissLabel} onClick={onDismiss}>
          ✕
        </IconButton>
      )}
    </div>
  );
}
