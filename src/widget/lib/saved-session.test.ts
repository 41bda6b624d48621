import { describe, expect, it } from 'vitest';
import { frameKey, savedSessions } from './saved-session.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
}

const NOW = Date.parse('2026-01-01T10:00:00Z');
const clock = () => NOW;

describe('a frame’s saved session', () => {
  it('is found again by the link it was opened with, not by another frame’s link', () => {
    const storage = memoryStorage();
    const card = `header.payload.${'c'.repeat(43)}`;
    const inbox = `header.payload.${'i'.repeat(43)}`;
    savedSessions(storage, frameKey(card), clock).write({ token: 'card-token', expires_at: '2026-01-01T11:00:00Z' });
    expect(savedSessions(storage, frameKey(card), clock).read()).toEqual({ token: 'card-token', expires_at: '2026-01-01T11:00:00Z' });
    expect(savedSessions(storage, frameKey(inbox), clock).read()).toBeNull();
    expect(savedSessions(storage, null, clock).read()).toBeNull();
  });

  it('is not taken up once expired, nor after it was cleared', () => {
    const storage = memoryStorage();
    const expired = savedSessions(storage, 'k', clock);
    expired.write({ token: 't', expires_at: '2026-01-01T09:59:59Z' });
    expect(expired.read()).toBeNull();
    const kept = savedSessions(storage, 'k2', clock);
    kept.write({ token: 't', expires_at: '2026-01-01T11:00:00Z' });
    kept.clear();
    expect(kept.read()).toBeNull();
  });

  it('does without storage', () => {
    const none = savedSessions(null, 'k', clock);
    none.write({ token: 't', expires_at: '2026-01-01T11:00:00Z' });
    expect(none.read()).toBeNull();
  });
});
