import type { ChatMessage } from './message.ts';

/** As much of a chat's history as the window is read from: what is loaded, and whether older pages remain. */
export interface LoadedHistory {
  messages: readonly Pick<ChatMessage, 'direction' | 'created_at'>[];
  olderCursor: string | null;
  phase: 'loading' | 'ready' | 'failed';
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Whether the customer's reply window is open (`reply_window_hours` of the channel: the business API takes
 * free-form messages only so long after the customer last wrote, templates at any time). `unknown` while the
 * loaded history cannot tell: no inbound message in it and older pages not read. The gateway decides in the end;
 * this only lets the frame say so before the agent writes.
 */
export function replyWindow(history: LoadedHistory, hours: number | null, now: number): 'open' | 'closed' | 'unknown' {
  if (hours === null) return 'open';
  if (history.phase !== 'ready') return 'unknown';
  for (let i = history.messages.length - 1; i >= 0; i--) {
    const m = history.messages[i]!;
    if (m.direction === 'inbound') return now - Date.parse(m.created_at) < hours * HOUR_MS ? 'open' : 'closed';
  }
  // The whole history is read and the customer never wrote: the window never opened.
  return history.olderCursor === null ? 'closed' : 'unknown';
}
