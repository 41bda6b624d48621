import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../contract/realtime.ts';
import { EventStream, Freshness } from './event-stream.ts';

const event = (position: number): StreamEvent =>
  ({ id: `e${position}`, position, name: 'message.delete', payload: { message_id: 'm', crm_user_id: null, timestamp: 0 }, created_at: '' }) as StreamEvent;

describe('the event stream of a frame', () => {
  it('resumes from the catch-up position, then from live events', () => {
    const s = new EventStream();
    s.connecting();
    expect(s.caughtUp({ events: [], position: 10 })).toEqual([]);
    expect(s.position).toBe(10);
    expect(s.live(event(12))).toBe(true);
    expect(s.position).toBe(12);
  });

  it('does not move past events still missing while a catch-up is pending', () => {
    const s = new EventStream();
    s.connecting();
    s.caughtUp({ events: [], position: 10 });
    s.connecting();
    // A live event arrives before the catch-up of 11..14: resuming from 15 would lose them.
    s.live(event(15));
    expect(s.position).toBe(10);
    const fresh = s.caughtUp({ events: [event(11), event(14), event(15)], position: 15 });
    expect(fresh.map((e) => e.position)).toEqual([11, 14]);
    expect(s.position).toBe(15);
  });

  it('drops repeats by id', () => {
    const s = new EventStream();
    s.connecting();
    s.caughtUp({ events: [event(1)], position: 1 });
    expect(s.live(event(1))).toBe(false);
    expect(s.caughtUp({ events: [event(1), event(2)], position: 2 }).map((e) => e.id)).toEqual(['e2']);
  });

  it('goes on from the resync position', () => {
    const s = new EventStream();
    s.resync({ reason: 'too_far_behind', position: 500 });
    expect(s.position).toBe(500);
  });

  it('applies to a subject only what is newer than what it applied', () => {
    const f = new Freshness();
    expect(f.isNewer('channel:1', 5)).toBe(true);
    expect(f.isNewer('channel:1', 4)).toBe(false);
    expect(f.isNewer('channel:2', 4)).toBe(true);
    expect(f.isNewer('channel:1', 6)).toBe(true);
  });
});
