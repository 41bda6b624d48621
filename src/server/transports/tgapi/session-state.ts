import type { MemoryStorage } from '@mtcute/core';

/**
 * What of a client's memory outlives the process: its authorization keys, its key-value store (the data centre, the
 * account, and the update state — pts, qts, date, seq — from which a session opened again asks for what it missed)
 * and the peers it knows (their access hashes, without which nobody can be written to). Message references are left:
 * the library fetches them again when it needs one.
 */
const KEPT = ['authKeys', 'kv', 'peers'] as const;

type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

function encode(value: unknown): Encoded {
  if (value instanceof Uint8Array) return { $b: Buffer.from(value).toString('base64') };
  if (value instanceof Map) return { $m: [...value].map(([k, v]) => [encode(k), encode(v)]) };
  if (value instanceof Set) return { $s: [...value].map(encode) };
  if (typeof value === 'bigint') return { $n: value.toString() };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  return (value ?? null) as Encoded;
}

function decode(value: Encoded): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (!value || typeof value !== 'object') return value;
  if ('$b' in value) return new Uint8Array(Buffer.from(value.$b as string, 'base64'));
  if ('$m' in value) return new Map((value.$m as Encoded[][]).map(([k, v]) => [decode(k!), decode(v!)]));
  if ('$s' in value) return new Set((value.$s as Encoded[]).map(decode));
  if ('$n' in value) return BigInt(value.$n as string);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
}

type States = Map<string, unknown>;
const statesOf = (storage: MemoryStorage) => (storage.driver as unknown as { states: States }).states;

/** The kept part of a client's memory as text (to be sealed). */
export function snapshotSession(storage: MemoryStorage): string {
  const states = statesOf(storage);
  return JSON.stringify(Object.fromEntries(KEPT.filter((name) => states.has(name)).map((name) => [name, encode(states.get(name))])));
}

/** Copies a snapshot back in place: the library's repositories hold their state objects and must keep them. */
function refill(target: unknown, source: unknown): void {
  if (target instanceof Map && source instanceof Map) {
    target.clear();
    for (const [k, v] of source) target.set(k, v);
  } else if (target && typeof target === 'object' && source && typeof source === 'object') {
    for (const [key, value] of Object.entries(source)) {
      const current = (target as Record<string, unknown>)[key];
      if (current instanceof Map) refill(current, value);
      else (target as Record<string, unknown>)[key] = value;
    }
  }
}

/** Puts a snapshot back into a client's memory before it connects. */
export function restoreSession(storage: MemoryStorage, snapshot: string): void {
  const states = statesOf(storage);
  for (const [name, encoded] of Object.entries(JSON.parse(snapshot) as Record<string, Encoded>)) {
    if (!(KEPT as readonly string[]).includes(name)) continue;
    const value = decode(encoded);
    if (states.has(name)) refill(states.get(name), value);
    else states.set(name, value);
  }
}

/** Has `persist` called whenever the library saves its memory (after update state moved, on login, on disconnect). */
export function onSessionSaved(storage: MemoryStorage, persist: () => Promise<void>): void {
  (storage.driver as unknown as { save: () => Promise<void> }).save = persist;
}
