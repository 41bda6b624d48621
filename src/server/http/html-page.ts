const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A small page of the gateway's own for a person who followed a link (an authorization page sending them back): a
 * title and a sentence, and links to choose among (their labels and addresses), all escaped, with nothing to run.
 */
export const htmlPage = (title: string, text: string, links: readonly { label: string; url: string }[] = []): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escaped(title)}</title><style>body{font:16px system-ui,sans-serif;margin:15vh auto;max-width:32rem;padding:0 1rem;color:#1f2937}li{margin:.75rem 0;line-height:1.4}</style>` +
  `</head><body><h1>${escaped(title)}</h1><p>${escaped(text)}</p>` +
  (links.length > 0 ? `<ul>${links.map((l) => `<li><a href="${escaped(l.url)}" rel="noreferrer">${escaped(l.label)}</a></li>`).join('')}</ul>` : '') +
  `</body></html>`;
