import { useEffect, useRef } from 'react';
import type { useHistory } from '../api/get-messages.ts';
import type { ChatMessage } from '../store/message.ts';
import { useJump } from '../store/jump.ts';

/** Older pages read at most for one jump (100 messages each): a match further back is reported as not reached. */
const MAX_PAGES_PER_JUMP = 100;

/**
 * Brings the jump target into view: scrolls to it once loaded, reading older pages of the history until then.
 * The history stays one unbroken run from the newest message, so scrolling and live messages behave as always.
 */
export function useJumpTarget(history: ReturnType<typeof useHistory>, messages: readonly ChatMessage[], scrollTo: (messageId: string) => boolean): void {
  const target = useJump((s) => s.target);
  const pagesRead = useRef(0);
  const olderCursor = history.data?.olderCursor ?? null;
  const { fetchNextPage, isFetchingNextPage, isFetchNextPageError } = history;

  useEffect(() => {
    pagesRead.current = 0;
  }, [target]);
  // A jump belongs to the chat whose history asked for it.
  useEffect(() => () => useJump.getState().reached(), []);

  useEffect(() => {
    if (!target || history.data === undefined || isFetchingNextPage) return;
    if (scrollTo(target)) return useJump.getState().reached();
    if (!olderCursor || isFetchNextPageError || pagesRead.current >= MAX_PAGES_PER_JUMP) return useJump.getState().miss();
    pagesRead.current += 1;
    void fetchNextPage();
  }, [target, messages, olderCursor, isFetchingNextPage, isFetchNextPageError, fetchNextPage, scrollTo, history.data]);
}
