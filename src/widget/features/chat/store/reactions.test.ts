import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { applyPatch, mergePatches, patchOfEvent, sending, withReaction, type ChatMessage } from './message.ts';

const message = (over: Partial<ChatMessage> = {}): ChatMessage => ({ ...sending('k', 'hi', new Date(0)), message_id: 'm1', status: 'delivered', ...over });
const reactionEvent = (reactor: string, emoji: string | null, by: 'agent' | 'customer' = 'customer') =>
  ({
    id: `e-${reactor}-${emoji}`,
    position: 1,
    name: 'message.reaction',
    created_at: '2030-01-01T00:00:00Z',
    payload: { message_id: 'm1', by, reactor, emoji, old_emoji: null, crm_user_id: null, timestamp: 0 },
  }) as StreamEvent;

describe('reactions in the history', () => {
  it('keeps one reaction per reactor: replaced in place, added at the end, taken out', () => {
    const a = withReaction(undefined, { reactor: 'c1', by: 'customer', emoji: '👍' });
    const b = withReaction(a, { reactor: 'agent', by: 'agent', emoji: '❤' });
    expect(withReaction(b, { reactor: 'c1', by: 'customer', emoji: '🔥' })).toEqual([
      { emoji: '🔥', by: 'customer', reactor: 'c1' },
      { emoji: '❤', by: 'agent', reactor: 'agent' },
    ]);
    expect(withReaction(b, { reactor: 'agent', by: 'agent', emoji: null })).toEqual([{ emoji: '👍', by: 'customer', reactor: 'c1' }]);
  });

  it('applies message.reaction events to the message, also when they waited for it as merged patches', () => {
    const set = patchOfEvent(reactionEvent('c1', '👍'))!;
    expect(set.keys).toEqual(['m:m1']);
    expect(applyPatch(message(), set.patch).reactions).toEqual([{ emoji: '👍', by: 'customer', reactor: 'c1' }]);
    const merged = mergePatches(mergePatches(set.patch, patchOfEvent(reactionEvent('agent', '❤', 'agent'))!.patch), patchOfEvent(reactionEvent('c1', null))!.patch);
    expect(applyPatch(message(), merged).reactions).toEqual([{ emoji: '❤', by: 'agent', reactor: 'agent' }]);
  });
});
