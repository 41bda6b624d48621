/**
 * The words of a search across chats, shared by the server, which looks them up, and the chat frame, which marks
 * them; without schemas, so the frame's bundle takes no schema library along.
 */

export const messageSearchLimits = { default: 20, max: 50, terms: 8 } as const;

/**
 * The query's words, lower-cased, as the server looks them up and the frame marks them: letters and digits only,
 * so nothing typed can become search syntax. At most `terms` words; none for a query of punctuation alone.
 */
export function searchTerms(q: string): string[] {
  const words = q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  return [...new Set(words)].slice(0, messageSearchLimits.terms);
}
