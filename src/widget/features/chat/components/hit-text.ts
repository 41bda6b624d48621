/** A piece of a hit's text, and whether it is one of the searched words' matches. */
export interface HitPart {
  text: string;
  match: boolean;
}

/** Characters shown before the first match when the text is cut, so the match is not lost past two lines. */
const LEAD = 40;

/**
 * A hit's text cut and marked as the server matched it: each searched word where it starts a word of the text,
 * in any case. A match far into a long text is brought forward: the text then starts a little before it, after
 * "…".
 */
export function hitParts(text: string, terms: readonly string[]): HitPart[] {
  if (terms.length === 0) return [{ text, match: false }];
  // Longer words first, so "par" does not take the place of "parcel" when both were typed. Words are letters and
  // digits alone (searchTerms), nothing a pattern would read as syntax.
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.toSorted((a, b) => b.length - a.length).join('|')})`, 'giu');
  const matches = [...text.matchAll(pattern)];
  const first = matches[0];
  const from = first && first.index > LEAD ? first.index - LEAD / 2 : 0;
  const parts: HitPart[] = from > 0 ? [{ text: '…', match: false }] : [];
  let at = from;
  for (const m of matches) {
    const start = m.index;
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: m[0], match: true });
    at = start + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
