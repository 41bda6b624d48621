import { Fragment } from 'react';

const LINK = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]}'»]/g;

/** A message's words with its web addresses clickable (opened in a new tab, without telling where from). */
export function Linkified({ text }: { text: string }) {
  const parts: (string | { url: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push({ url: match[0] });
    at = match.index + match[0].length;
  }
  if (parts.length === 0) return text;
  if (at < text.length) parts.push(text.slice(at));
  return parts.map((part, i) =>
    typeof part === 'string' ? (
      <Fragment key={i}>{part}</Fragment>
    ) : (
      <a key={i} href={part.url} target="_blank" rel="noreferrer noopener" className="text-accent underline">
        {part.url}
      </a>
    ),
  );
}
