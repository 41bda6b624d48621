import { useWords } from '@/lib/i18n.ts';
import type { ShownStatus } from '../store/message.ts';
import { words } from '../words.ts';
import { ClockIcon } from './icons.tsx';

const ticks: Record<ShownStatus, string | null> = { sending: null, accepted: null, sent: '✓', delivered: '✓✓', read: '✓✓', failed: '!' };
const tickColours: Partial<Record<ShownStatus, string>> = { read: 'text-read', failed: 'font-bold tracking-normal text-danger' };

/**
 * A sent message's status as messengers mark it (✓ sent, ✓✓ delivered, blue ✓✓ read, ! failed, a clock before),
 * named for screen readers. A file of its own: the chat list's rows show it without loading the bubble's code.
 */
export function StatusTicks({ status }: { status: ShownStatus }) {
  const label = useWords(words).status[status];
  return (
    <span className={`text-[11px] tracking-[-2px] ${tickColours[status] ?? ''}`} role="img" aria-label={label} title={label}>
      {ticks[status] ?? <ClockIcon />}
    </span>
  );
}
