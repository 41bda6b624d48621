import type { MessageStatus } from '../../../contract/messages.ts';

const rank: Record<Exclude<MessageStatus, 'failed'>, number> = { accepted: 0, sent: 1, delivered: 2, read: 3 };

/**
 * Whether a message may move from `current` to `next`. Status only moves forward: accepted → sent →
 * delivered → read, or failed from accepted or sent. A late receipt (delivered after read) is ignored. Pure.
 */
export function advances(current: MessageStatus, next: MessageStatus): boolean {
  if (current === 'failed') return false;
  if (next === 'failed') return current === 'accepted' || current === 'sent';
  return rank[next] > rank[current];
}
