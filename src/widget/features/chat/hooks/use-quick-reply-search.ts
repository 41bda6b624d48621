import { useId, useState, type KeyboardEvent } from 'react';
import type { QuickReply } from '../../../../contract/bff-quick-replies.ts';
import { useQuickReplies } from '../api/quick-replies.ts';
import { matchReplies, slashQuery } from '../store/quick-reply-match.ts';

/**
 * The composer's `/` search of the account's quick replies. The box stays a text box that owns the focus; the list
 * is a listbox it points into with `aria-activedescendant` (as a combobox's input does): ↑ ↓ move, Enter puts the
 * reply in the box (in place of the `/word`), Escape closes the list until the text changes.
 */
export function useQuickReplySearch(text: string, setText: (text: string) => void, enabled: boolean) {
  const query = enabled ? slashQuery(text) : null;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [managing, setManaging] = useState(false);
  const open = query !== null && dismissed !== text;
  const loaded = useQuickReplies(query !== null || managing);
  const found = open && loaded.data ? matchReplies(loaded.data.replies, query) : [];
  const at = Math.min(active, Math.max(found.length - 1, 0));
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;

  const pick = (reply: QuickReply) => {
    setText(reply.text);
    setActive(0);
  };

  /** True when the key was the list's (the composer does nothing more with it). */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (found.length === 0) return false;
      e.preventDefault();
      setActive((at + (e.key === 'ArrowDown' ? 1 : found.length - 1)) % found.length);
      return true;
    }
    if (e.key === 'Enter' && !e.shiftKey && found[at]) {
      e.preventDefault();
      pick(found[at]);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setDismissed(text);
      return true;
    }
    return false;
  };

  return {
    open,
    onKeyDown,
    /** What the text box says of the list: assistive technology follows the active option. */
    boxProps: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open && found.length > 0 ? listId : undefined,
      'aria-activedescendant': open && found[at] ? optionId(at) : undefined,
    },
    menu: {
      listId,
      optionId,
      query: query ?? '',
      found,
      active: at,
      state: loaded.isError ? ('failed' as const) : loaded.data ? ('ready' as const) : ('loading' as const),
      total: loaded.data?.replies.length ?? 0,
      onPick: pick,
      onHover: setActive,
      onManage: () => setManaging(true),
    },
    managing,
    stopManaging: () => setManaging(false),
    /** The list as read (for the dialog). */
    list: loaded.data ?? null,
  };
}
