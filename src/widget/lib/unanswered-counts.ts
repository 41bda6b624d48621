import type { StreamEvent } from '../../contract/realtime.ts';

type UnansweredUpdate = Extract<StreamEvent, { name: 'chat.unanswered_update' }>;

/**
 * The frame's unanswered counters per chat, summed for the host's badge. Pushes may arrive out of order (the
 * count is read when pushed), so a chat keeps the value of the highest position seen.
 */
export function unansweredCounts() {
  const chats = new Map<string, { position: number; count: number }>();
  return {
    /** Takes one update; answers whether the total may have changed. */
    take(update: UnansweredUpdate): boolean {
      const known = chats.get(update.payload.chat_ref);
      if (known && known.position > update.position) return false;
      chats.set(update.payload.chat_ref, { position: update.position, count: update.payload.unanswered_count });
      return known?.count !== update.payload.unanswered_count;
    },
    total(): number {
      let sum = 0;
      for (const { count } of chats.values()) sum += count;
      return sum;
    },
  };
}
