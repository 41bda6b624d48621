/**
 * CRMs written for the original service send what it tolerates: ids as numbers, empty strings and nulls for fields
 * they have no value for, a bare array for a list. These helpers turn such bodies into the shapes the schemas
 * check, before validation; anything else is left for the schema to refuse.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Drops the fields whose value is null or an empty string. */
export function withoutBlanks(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== ''));
}

/** A number where an id is expected becomes its decimal text. */
export const idText = (v: unknown): unknown => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);

/** The fields named in `ids` as text, in one object. */
export function idsAsText(value: unknown, ids: string[]): unknown {
  if (!isObject(value)) return value;
  const out: Json = { ...value };
  for (const key of ids) {
    if (key in out) out[key] = Array.isArray(out[key]) ? (out[key] as unknown[]).map(idText) : idText(out[key]);
  }
  return out;
}

/** A bare array sent for a list is the list under `key`. */
export const listUnder = (body: unknown, key: string): unknown => (Array.isArray(body) ? { [key]: body } : body);

/** Each item of the list under `key`, changed by `each`. */
export function eachItem(body: unknown, key: string, each: (item: unknown) => unknown): unknown {
  if (!isObject(body) || !Array.isArray(body[key])) return body;
  return { ...body, [key]: (body[key] as unknown[]).map(each) };
}
