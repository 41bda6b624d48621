/**
 * `compute` remembered per key, for values every delivery needs again (opened secrets, HMAC keys). Keys are
 * few (one or two secrets per account); past `max` the memory starts over rather than grow.
 */
export function memoized<V>(compute: (key: string) => V, max = 1_000): (key: string) => V {
  const known = new Map<string, V>();
  return (key) => {
    const found = known.get(key);
    if (found !== undefined) return found;
    const value = compute(key);
    if (known.size >= max) known.clear();
    known.set(key, value);
    return value;
  };
}
