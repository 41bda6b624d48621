/**
 * The limits of a message's `keyboard`, one set per dialect (interface "Keyboard"). The server checks a keyboard
 * against them when it is sent; the chat frame's keyboard builder checks each field against them as the agent
 * types, counting the same way, so that what the builder lets through is neither refused nor cut by the server.
 */
export const keyboardLimits = {
  business: { buttons: 10, textChars: 20 },
  telegram: { buttons: 12, textChars: 64, callbackBytes: 64 },
  /** MAX's own limits on a button (its API schema): longer ones would be refused after the send was accepted. */
  max: { textChars: 128, payloadChars: 1024, urlChars: 2048 },
} as const;

/** Addresses a link button may open: telegram bots also take `tg:` links, MAX bots web addresses only. */
export const keyboardUrlProtocols = {
  telegram: ['http:', 'https:', 'tg:'],
  max: ['http:', 'https:'],
} as const;

/** Characters as people count them (code points), not UTF-16 units: an emoji is one. */
export const codePoints = (s: string): number => [...s].length;

const encoder = new TextEncoder();

/** Bytes of the text in UTF-8, as the messenger counts a callback's data (a lone surrogate counts as U+FFFD). */
export const utf8Bytes = (s: string): number => encoder.encode(s).length;

/** Whether `value` parses as a URL of one of `protocols` (`'https:'`…). */
export function isUrlOf(value: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
