import type { QuickReply } from '../../../../contract/bff-quick-replies.ts';

/**
 * What the agent is looking for when the box holds `/` and a word (nothing else): the word, possibly empty; null
 * when the box is not a quick-reply search (text before the slash, or a space after the word).
 */
export function slashQuery(text: string): string | null {
  const found = /^\/(\S*)$/.exec(text);
  return found ? found[1]! : null;
}

/**
 * The replies a query finds, best first: shortcuts that start with it, then shortcuts that contain it, then replies
 * whose text contains it (case-insensitive, in the list's own order within each group).
 */
export function matchReplies(replies: readonly QuickReply[], query: string): QuickReply[] {
  const q = query.toLocaleLowerCase();
  if (!q) return [...replies];
  const starts: QuickReply[] = [];
  const contains: QuickReply[] = [];
  const inText: QuickReply[] = [];
  for (const r of replies) {
    const shortcut = r.shortcut.toLocaleLowerCase();
    if (shortcut.startsWith(q)) starts.push(r);
    else if (shortcut.includes(q)) contains.push(r);
    else if (r.text.toLocaleLowerCase().includes(q)) inText.push(r);
  }
  return [...starts, ...contains, ...inText];
}
