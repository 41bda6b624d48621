/** A piece of a hit's text, and whether it is one of the searched words' matches. */
export interface HitPart {
  text: string;
  match: boolean;
}

/** Characters shown before the first match when the text is cut, so the match is not lost past two lines. */
const LEAD = 40;

/**
 * A hit's text cut and marked as the server matched it: each searched word where it starts a word of the text,
 * in any case. A match far into a long text is brought forward: the text then starts a little before it, at a
 * word, after "…".
 */
export function hitParts(text: string, terms: readonly string[]): HitPart[] {
  if (terms.length === 0) return [{ text, match: false }];
  // Longer words first, so "par" does not take the place of "parcel" when both were typed.
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})`, 'giu');
  const matches = [...text.matchAll(pattern)];
  const first = matches[0];
  let from = 0;
  let lead = '';
  if (first && first.index > LEAD) {
    const space = text.lastIndexOf(' ', first.index - LEAD);
    from = space >= 0 && first.index - space < LEAD * 2 ? space + 1 : first.index - LEAD;
    lead = '…';
  }
  const parts: HitPart[] = lead ? [{ text: lead, match: false }] : [];
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
