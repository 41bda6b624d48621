import type { HTMLAttributes } from 'react';

/** A count on a row (unanswered messages). */
export function Badge({ className = '', ...props }: HTMLAttributes<HTMLSpanElement>) {
  return <span className={`min-w-5 flex-none rounded-full bg-accent px-1.5 py-px text-center text-xs font-semibold text-accent-text ${className}`} {...props} />;
}

/** A word set apart on a message (template, deleted). */
export function Tag({ tone = 'plain', className = '', ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: 'plain' | 'danger' }) {
  const colours = tone === 'danger' ? 'bg-danger-bg text-danger' : 'bg-line text-muted';
  return <span className={`rounded px-1.5 text-[11px] font-semibold tracking-wide uppercase ${colours} ${className}`} {...props} />;
}
