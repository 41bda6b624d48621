import { useCallback, useEffect, useRef, useState } from 'react';
import { useEmbed } from '@/lib/embed-context.tsx';

/** How often the agent's typing is told while they type (the messengers show it for about 5 s). */
export const TYPING_EVERY_MS = 4_000;
/** How long "typing…" shows after the customer's last word of it. */
export const TYPING_SHOWN_MS = 6_000;

/**
 * Tells the customer the agent is typing (POST /bff/chats/{ref}/typing), at most once every 4 s; a chat nobody wrote
 * to yet has nothing to tell. Failures are let go: it is a courtesy.
 */
export function useTellTyping(chatRef: string | null, enabled: boolean, now: () => number = Date.now): () => void {
  const { client } = useEmbed();
  const last = useRef(0);
  return useCallback(() => {
    if (!chatRef || !enabled || now() - last.current < TYPING_EVERY_MS) return;
    last.current = now();
    client.request('POST', `/chats/${encodeURIComponent(chatRef)}/typing`).catch(() => {});
  }, [client, chatRef, enabled, now]);
}

/** Whether the chat's customer is typing now, as the stream tells it. */
export function useCustomerTyping(chatRef: string | null): boolean {
  const ctx = useEmbed();
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    if (!chatRef || !ctx.onTyping) return undefined;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = ctx.onTyping((t) => {
      if (t.chat_ref !== chatRef) return;
      if (timer) clearTimeout(timer);
      timer = null;
      // The customer stopped without sending: no need to wait for the lapse.
      setTyping(!t.stopped);
      if (!t.stopped) timer = setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
    });
    // A message from the customer ends their typing at once.
    const offEvents = ctx.onEvent((e) => {
      if (e.name === 'message.add' && e.payload.direction === 'inbound' && timer) {
        clearTimeout(timer);
        setTyping(false);
      }
    });
    return () => {
      off();
      offEvents();
      if (timer) clearTimeout(timer);
      setTyping(false);
    };
  }, [ctx, chatRef]);
  return typing;
}
