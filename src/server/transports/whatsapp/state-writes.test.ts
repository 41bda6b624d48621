import { describe, expect, it } from 'vitest';
import { SessionLeaseLost, type SessionState } from '../../core/sessions/ports.ts';
import { sessionAuth } from './baileys-socket.ts';

/** A seeded draw (mulberry32): the writes' delays differ from one burst to the next, the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A session's stored state whose writes take a random while each (a database under load), and may fail. */
function slowState(random: () => number, failures: { left: number; error?: Error } = { left: 0 }) {
  const stored = new Map<string, unknown>();
  let writes = 0;
  const state: SessionState = {
    async get(keys) {
      return Object.fromEntries(keys.filter((k) => stored.has(k)).map((k) => [k, stored.get(k)]));
    },
    async set(entries) {
      writes++;
      // Each write is taken when made (its values then) and lands after its own delay.
      const copy = structuredClone(entries);
      for (let hop = Math.floor(random() * 4); hop > 0; hop--) await new Promise((resolve) => setImmediate(resolve));
      if (failures.left > 0) {
        failures.left--;
        throw failures.error ?? new Error('connection terminated unexpectedly');
      }
      for (const [k, v] of Object.entries(copy)) if (v === null) stored.delete(k); else stored.set(k, v);
    },
    async clear() {},
    async end() {},
  };
  return { state, stored, writes: () => writes };
}

describe("a WhatsApp session's credential and key writes", () => {
  it('keeps the last save of a burst of credential saves, in every one of 200 bursts', async () => {
    const baileys = await import('baileys');
    const random = seeded(46);
    let lost = 0;
    const { state, stored } = slowState(random);
    const auth = await sessionAuth(baileys, state, () => {});
    for (let burst = 0; burst < 200; burst++) {
      const saves: Promise<unknown>[] = [];
      for (let n = 1; n <= 3; n++) {
        auth.creds.nextPreKeyId = burst * 10 + n;
        saves.push(auth.saveCreds());
      }
      await Promise.all(saves);
      if ((stored.get('creds') as { nextPreKeyId: number }).nextPreKeyId !== burst * 10 + 3) lost++;
    }
    expect(lost).toBe(0);
  }, 20_000);

  it('tries a failed key write again, and reports (and fails) one that keeps failing', async () => {
    const baileys = await import('baileys');
    const failing = { left: 2 };
    const { state, stored } = slowState(seeded(1), failing);
    const reported: unknown[] = [];
    const auth = await sessionAuth(baileys, state, (err) => reported.push(err), [1, 1, 1]);
    await auth.keys.set({ 'pre-key': { '7': { public: Buffer.from([1]), private: Buffer.from([2]) } } });
    expect(stored.has('pre-key:7')).toBe(true);
    expect(reported).toEqual([]);

    failing.left = 10;
    await expect(auth.keys.set({ 'pre-key': { '8': { public: Buffer.from([3]), private: Buffer.from([4]) } } })).rejects.toThrow('connection terminated');
    expect(reported).toHaveLength(1);
    expect(stored.has('pre-key:8')).toBe(false);
  });

  it('does not try again a write refused because another process took the session over', async () => {
    const baileys = await import('baileys');
    const { state, writes } = slowState(seeded(2), { left: 1, error: new SessionLeaseLost('c1') });
    const reported: unknown[] = [];
    const auth = await sessionAuth(baileys, state, (err) => reported.push(err), [1, 1, 1]);
    await expect(auth.saveCreds()).rejects.toBeInstanceOf(SessionLeaseLost);
    expect(writes()).toBe(1);
    expect(reported).toHaveLength(1);
  });
});
