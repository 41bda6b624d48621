/**
 * PostgreSQL's text and jsonb cannot hold U+0000, so a string carrying one fails the statement that stores it.
 * A request is refused with a field error naming where it was; what a platform posts is kept, with each NUL
 * made U+FFFD (the replacement character), since refusing it would only make the platform send it again.
 *
 * The walk keeps its own stack rather than recursing: a body is at most a megabyte, but a megabyte of `[` nests
 * far deeper than the call stack goes. A platform's body is cleaned as text, before it is parsed, in one pass:
 * the hooks' bodies come from anyone, and are read before their secret is checked.
 */

const NUL = '\u0000';

interface Place {
  value: unknown;
  key: string;
  parent: Place | null;
}

/** `/a/0/b`: the path is spelled out only for the place found, not for every place walked. */
function pointerTo(place: Place): string {
  const keys: string[] = [];
  for (let p: Place | null = place; p?.parent; p = p.parent) keys.push(p.key);
  return keys.reverse().map((k) => `/${k}`).join('');
}

/** The JSON pointer (`/recipient/name`) of the first string, or object key, holding U+0000; null when there is none. */
export function nulPointer(value: unknown): string | null {
  const stack: Place[] = [{ value, key: '', parent: null }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const v = place.value;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return pointerTo(place);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    // Pushed in reverse, so that the first field in document order is looked at first.
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const child = { value: item, key: key.replaceAll(NUL, '\uFFFD'), parent: place };
      if (key.includes(NUL)) return pointerTo(child);
      stack.push(child);
    }
  }
  return null;
}

/** `\u0000` in JSON text, not preceded by a backslash of its own (an even run of backslashes is escaped ones). */
const NUL_ESCAPES = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * Whether JSON text may hold U+0000: in JSON it can only be written `\u0000` (a raw NUL is not valid JSON), so
 * text without that sequence has none, and the parsed value need not be walked.
 */
export const mayHoldNul = (json: string): boolean => json.includes('\\u0000');

/** JSON text with each U+0000 it encodes written as U+FFFD instead: one pass over the text, before it is parsed. */
export const replacingNul = (json: string): string => (mayHoldNul(json) ? json.replace(NUL_ESCAPES, '$1\\ufffd') : json);

/** Bodies parsed from JSON text that may hold U+0000 (see `mayHoldNul`): only these are walked when validated. */
const suspectBodies = new WeakSet<object>();

export const markMayHoldNul = (body: object): void => void suspectBodies.add(body);

/** Whether a parsed body must be walked for U+0000: one parsed from text that may hold it, or anything not an object. */
export const needsNulWalk = (body: unknown): boolean => typeof body !== 'object' || body === null || suspectBodies.has(body);
