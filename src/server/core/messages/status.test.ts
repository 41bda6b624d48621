import { describe, expect, it } from 'vitest';
import { messageStatuses, type MessageStatus } from '../../../contract/messages.ts';
import { advances } from './status.ts';

describe('message status order', () => {
  const forward: [MessageStatus, MessageStatus][] = [
    ['accepted', 'sent'],
    ['accepted', 'delivered'],
    ['accepted', 'read'],
    ['sent', 'delivered'],
    ['sent', 'read'],
    ['delivered', 'read'],
    ['accepted', 'failed'],
    ['sent', 'failed'],
  ];

  it.each(forward)('moves %s → %s', (from, to) => expect(advances(from, to)).toBe(true));

  it('refuses every other pair: no regress, no repeat, nothing after failed, no failure after delivery', () => {
    const allowed = new Set(forward.map(([a, b]) => `${a}>${b}`));
    for (const from of messageStatuses) {
      for (const to of messageStatuses) {
        if (!allowed.has(`${from}>${to}`)) expect(advances(from, to), `${from} → ${to}`).toBe(false);
      }
    }
  });
});
