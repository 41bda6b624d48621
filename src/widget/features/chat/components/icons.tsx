import type { ReactNode } from 'react';

/*
 * The chat frame's marks, drawn in the text's colour: emoji fonts are missing on many machines (a paperclip, a clock
 * or a bin then shows as an empty box), a drawing is not.
 */

const drawn = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

type IconProps = { className?: string };

function Drawing({ className, size, children }: { className: string; size: number; children: ReactNode }) {
  return (
    <svg className={`flex-none ${className}`} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

/** A file. */
export const PaperclipIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`gw-paperclip ${className}`} size={16}>
    <path d="M16 7v9a4 4 0 0 1-8 0V6a2.5 2.5 0 0 1 5 0v9.5a1 1 0 0 1-2 0V8" {...drawn} />
  </Drawing>
);

/** A page with lines of text: the template button's mark, which stays when a narrow frame drops its word. */
export const TemplateIcon = ({ className = '' }: IconProps) => (
  <Drawing className={className} size={16}>
    <path d="M7 3h7l4 4v14H7zM14 3v4h4M10 12h5M10 16h5" {...drawn} />
  </Drawing>
);

/** Two rows of buttons: the composer's button for the keyboard builder, which stays when a narrow frame drops its word. */
export const ButtonsIcon = ({ className = '' }: IconProps) => (
  <Drawing className={className} size={16}>
    <path d="M4 5h16v5H4zM4 14h16v5H4z" {...drawn} />
  </Drawing>
);

/** A paper plane: the send button's mark, in place of its word in a narrow frame. */
export const SendIcon = ({ className = '' }: IconProps) => (
  <Drawing className={className} size={18}>
    <path d="M4 12 20 4l-6 16-3-7zM11 13l9-9" {...drawn} />
  </Drawing>
);

/** A message on its way: accepted, not yet sent. */
export const ClockIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`inline-block align-[-1px] ${className}`} size={12}>
    <circle cx="12" cy="12" r="8.5" {...drawn} />
    <path d="M12 7.5V12l3 2" {...drawn} />
  </Drawing>
);

/** Edit. */
export const PencilIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`block ${className}`} size={14}>
    <path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4" {...drawn} />
  </Drawing>
);

/** Delete. */
export const TrashIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`block ${className}`} size={14}>
    <path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13M10.5 11v5.5M13.5 11v5.5" {...drawn} />
  </Drawing>
);

/** Reply: an arrow turning back. */
export const ReplyIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`block ${className}`} size={14}>
    <path d="M10 8 5 12.5l5 4.5M5.5 12.5H14a5 5 0 0 1 5 5V19" {...drawn} />
  </Drawing>
);

/** Copy: two sheets. */
export const CopyIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`block ${className}`} size={14}>
    <path d="M9 9h10v11H9zM5 15V4h10" {...drawn} />
  </Drawing>
);

/** A bell: the notification settings. */
export const BellIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`block ${className}`} size={18}>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0" {...drawn} />
  </Drawing>
);

/** A pencil on a page: a new chat. */
export const NewChatIcon = ({ className = '' }: IconProps) => (
  <Drawing className={`block ${className}`} size={18}>
    <path d="M12 4H5v15h15v-7M10 14h3l8-8-3-3-8 8z" {...drawn} />
  </Drawing>
);
