import type { EventSink } from '../events/dispatch-event.ts';
import type { ChatType } from '../../../contract/channels.ts';

/** What a sandbox phone page is told: something of the account changed (read it again), or the account is typing. */
export type PhoneNews = { kind: 'change' } | { kind: 'typing'; channel_id: string; chat_type: ChatType; chat_id: string };

/**
 * The sandbox phones' push: each open phone page listens for its account, and hears when an event of the account
 * was recorded (it reads its chat again, rather than polling) and when an agent types to one of its customers.
 * In-process: each gateway process tells the phones connected to it (every process follows the event stream).
 */
export interface PhoneFeed {
  sink: EventSink;
  listen(accountId: string, hear: (news: PhoneNews) => void): () => void;
  typing(accountId: string, news: Extract<PhoneNews, { kind: 'typing' }>): void;
}

export function createPhoneFeed(): PhoneFeed {
  const listeners = new Map<string, Set<(news: PhoneNews) => void>>();
  const tell = (accountId: string, news: PhoneNews) => {
    for (const hear of listeners.get(accountId) ?? []) hear(news);
  };
  return {
    sink: {
      name: 'sandbox-phones',
      async consume(events) {
        if (listeners.size === 0) return;
        // One word per account and batch: the page reads again once, whatever the batch held.
        for (const accountId of new Set(events.map((e) => e.accountId))) tell(accountId, { kind: 'change' });
      },
    },
    listen(accountId, hear) {
      const set = listeners.get(accountId) ?? new Set();
      set.add(hear);
      listeners.set(accountId, set);
      return () => {
        set.delete(hear);
        if (set.size === 0) listeners.delete(accountId);
      };
    },
    typing: tell,
  };
}
