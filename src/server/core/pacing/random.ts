/** A source of numbers in [0, 1): Math.random in service, a seeded one in tests and benches. */
export type Random = () => number;

/** mulberry32: a small seeded generator, so that a test's gaps are the same on every run. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number of milliseconds between `min` and `max` seconds. */
export const drawMs = (random: Random, bounds: { min: number; max: number }) => Math.round((bounds.min + random() * Math.max(0, bounds.max - bounds.min)) * 1000);
