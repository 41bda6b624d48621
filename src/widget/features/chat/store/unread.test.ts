import { beforeEach, describe, expect, it } from 'vitest';
import { titleWithCount, unreadKey, unreadTotals, useUnread } from './unread.ts';

describe('unread messages', () => {
  beforeEach(() => useUnread.getState().attach(null));

  it('counts per chat what came in, and reading a chat clears only its count', () => {
    const a = unreadKey({ channel_id: 'ch', chat_type: 'whatsapp', chat_id: '1' })!;
    const b = unreadKey({ channel_id: 'ch', chat_type: 'whatsapp', chat_id: '2' })!;
    const { add, read } = useUnread.getState();
    add(a);
    add(a);
    add(b);
    expect(unreadTotals(useUnread.getState().counts)).toEqual({ total: 3, chats: 2 });
    read(a);
    expect(useUnread.getState().counts).toEqual({ [b]: 1 });
  });

  it('names no chat without both its channel and its messenger id', () => {
    expect(unreadKey({ channel_id: null, chat_type: 'telegram', chat_id: '5' })).toBeNull();
    expect(unreadKey({ channel_id: 'ch', chat_type: 'telegram', chat_id: null })).toBeNull();
  });

  it('puts the count before the title, as messengers’ tabs do', () => {
    expect(titleWithCount('Chats', 0)).toBe('Chats');
    expect(titleWithCount('Чаты', 3)).toBe('(3) Чаты');
    expect(titleWithCount('Chats', 120)).toBe('(99+) Chats');
  });
});
