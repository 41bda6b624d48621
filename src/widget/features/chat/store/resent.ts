/**
 * Failed messages the agent sent again. "Send again" sends the same content as a new message and its bubble
 * becomes that message; the gateway keeps the failed one in the chat's history, so pages read later would show it
 * again. The frame remembers which it replaced (for the tab's life, across reloads of the frame) and leaves them
 * out.
 */
const STORAGE_KEY = 'gw-resent';
const KEPT = 500;

function load(): Set<string> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return new Set(Array.isArray(saved) ? saved.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

let ids: Set<string> | null = null;

const all = (): Set<string> => (ids ??= typeof sessionStorage === 'undefined' ? new Set() : load());

/** The failed message `messageId` was sent again: it is not shown any more. */
export function markResent(messageId: string): void {
  const set = all();
  set.add(messageId);
  while (set.size > KEPT) set.delete(set.values().next().value!);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...set]));
  } catch {
    // Storage full or refused (a sandboxed frame): the frame still hides it until it is reloaded.
  }
}

/** The send failed after all: the failed message shows again. */
export function unmarkResent(messageId: string): void {
  const set = all();
  if (!set.delete(messageId)) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...set]));
  } catch {
    // As above.
  }
}

export const wasResent = (messageId: string | null): boolean => messageId !== null && ids !== null && ids.has(messageId);

/** Reads what an earlier load of the frame remembered (before the first history is drawn). */
export function loadResent(): void {
  all();
}
