/**
 * Text PostgreSQL cannot store: U+0000 (text and jsonb cannot hold it) and an unpaired UTF-16 surrogate (not a
 * character at all: jsonb refuses it as invalid input). A string carrying either fails the statement that stores
 * it. A request is refused with a field error naming where it was; what a platform posts is kept, with each such
 * code unit made U+FFFD (the replacement character), since refusing it would only make the platform send it again.
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

export interface UnstorablePlace {
  /** JSON pointer of the string or key: `/recipient/name`. */
  pointer: string;
  message: string;
}

/** A high surrogate not followed by a low one, or a low one not after a high one (code units: no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

const problemOf = (text: string): string | null => {
  if (text.includes(NUL)) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
};

/** Readable in a pointer: what cannot be stored is shown as U+FFFD. */
const printable = (key: string) => key.replaceAll(NUL, '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');

/** The first string, or object key, holding text that cannot be stored, and why; null when there is none. */
export function unstorablePlace(value: unknown): UnstorablePlace | null {
  const stack: Place[] = [{ value, key: '', parent: null }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const v = place.value;
    if (typeof v === 'string') {
      const message = problemOf(v);
      if (message !== null) return { pointer: pointerTo(place), message };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    // Pushed in reverse, so that the first field in document order is looked at first.
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const child = { value: item, key: printable(key), parent: place };
      const message = problemOf(key);
      if (message !== null) return { pointer: pointerTo(child), message };
      stack.push(child);
    }
  }
  return null;
}

/** The JSON pointer of the first string or key holding U+0000 or an unpaired surrogate; null when there is none. */
export const unstorablePointer = (value: unknown): string | null => unstorablePlace(value)?.pointer ?? null;

/** `\u0000` or a surrogate escape in JSON text, not preceded by a backslash of its own (an even run is escaped ones). */
const ESCAPES = /(?<!\\)((?:\\\\)*)\\u(0000|[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|[dD][c-fC-F][0-9a-fA-F]{2})/g;
const MAY_HOLD = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * Whether JSON text may hold U+0000 or a lone surrogate: in JSON either can only be written as a `\u` escape (a
 * raw NUL is not valid JSON, and bytes that are not UTF-8 are read as U+FFFD), so text without one has none, and
 * the parsed value need not be walked.
 */
export const mayHoldUnstorable = (json: string): boolean => MAY_HOLD.test(json);

/**
 * JSON text with each U+0000 and each unpaired surrogate it encodes written as U+FFFD instead: one pass over the
 * text, before it is parsed. A surrogate pair (a character beyond the BMP, such as an emoji) is kept.
 */
export const replacingUnstorable = (json: string): string =>
  mayHoldUnstorable(json) ? json.replace(ESCAPES, (whole, backslashes: string, code: string) => (code.length === 10 ? whole : `${backslashes}\\ufffd`)) : json;

/** A refusal in the shape of a schema failure, so that it is answered as one: 400 VALIDATION_ERROR naming the field. */
export interface UnstorableRefusal extends Error {
  statusCode: 400;
  validationContext: 'body';
  validation: { instancePath: string; schemaPath: string; keyword: 'unstorable'; params: Record<string, never>; message: string }[];
}

/**
 * The refusal of a parsed request body holding text the database cannot store, or null. It is made where the body
 * is parsed, before any route rewrites it (wraps a bare array, turns ids to text, drops blank fields), so that no
 * rewriting can carry such text past the check, whatever the route and whether or not it has a body schema.
 */
export function unstorableBodyRefusal(body: unknown): UnstorableRefusal | null {
  const at = unstorablePlace(body);
  if (at === null) return null;
  const refusal = new Error(`body${at.pointer} ${at.message}`) as UnstorableRefusal;
  refusal.statusCode = 400;
  refusal.validationContext = 'body';
  refusal.validation = [{ instancePath: at.pointer, schemaPath: '#', keyword: 'unstorable', params: {}, message: at.message }];
  return refusal;
}
