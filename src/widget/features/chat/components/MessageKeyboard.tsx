import type { ReactNode } from 'react';
import { useWords } from '@/lib/i18n.ts';
import type { ShownKeyboard } from '../store/keyboard.ts';
import { templateWords } from '../template-words.ts';

const buttonClass = 'flex min-w-16 flex-1 basis-0 items-center justify-center rounded-md border border-line bg-panel px-2 py-1 text-center text-[13px] no-underline [overflow-wrap:anywhere]';

/** A row of buttons: as tall as its tallest, the words of each in its middle. */
export function KeyboardRow({ label, className = '', children }: { label?: string; className?: string; children: ReactNode }) {
  return (
    <div className={`flex flex-wrap gap-1 ${className}`} role={label ? 'group' : undefined} aria-label={label}>
      {children}
    </div>
  );
}

/** A button as the customer sees it: shown, not pressed; `dashed` for a reply keyboard's, in the customer's keyboard's place. */
export function KeyboardButton({ dashed = false, children }: { dashed?: boolean; children: ReactNode }) {
  return <span className={`${buttonClass} text-text ${dashed ? 'border-dashed' : ''}`}>{children}</span>;
}

/**
 * The buttons a message put before the customer, as they see them. Shown, not pressed: the agent is not the
 * customer, so only a button that opens a web page is a link (to check where it leads).
 */
export function MessageKeyboard({ keyboard }: { keyboard: ShownKeyboard }) {
  const w = useWords(templateWords).keyboard;
  const dashed = keyboard.kind === 'reply';
  return (
    <div className="mt-1.5 flex flex-col gap-1" role="group" aria-label={dashed ? w.reply : w.inline}>
      {dashed && <span className="text-[11px] text-muted">{w.replyCaption}</span>}
      {keyboard.rows.map((row, i) => (
        <KeyboardRow key={i}>
          {row.map((button, j) =>
            button.url ? (
              <a
                className={`${buttonClass} text-accent hover:border-accent focus-visible:border-accent ${dashed ? 'border-dashed' : ''}`}
                key={j}
                href={button.url}
                target="_blank"
                rel="noreferrer noopener"
                title={w.opens(button.url)}
              >
                {button.text} ↗
              </a>
            ) : (
              <KeyboardButton key={j} dashed={dashed}>
                {button.text}
              </KeyboardButton>
            ),
          )}
        </KeyboardRow>
      ))}
    </div>
  );
}
