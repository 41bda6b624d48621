import { beforeEach, describe, expect, it } from 'vitest';
import { titleWithCount, unreadChatOf, unreadKey, unreadTotals, useUnread } from './unread.ts';

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

  it('counts a customer’s file and its caption as one message, and the agent’s own messages not at all', () => {
    const recipient = { chat_type: 'telegram' as const, chat_id: '5' };
    const added = (fields: Record<string, unknown>) => ({ message_id: 'm', channel_id: 'ch', direction: 'inbound' as const, timestamp: 1, status: 'sent', recipient, ...fields });
    const key = unreadKey({ ...recipient, channel_id: 'ch' });
    const arrived = [added({ attachment: { url: 'https://files.example/a.png' } }), added({ text: 'is it blue?', caption_of: 'm' }), added({ text: 'hello?' }), added({ direction: 'outbound', text: 'yes' })];
    for (const chat of arrived.map(unreadChatOf)) if (chat) useUnread.getState().add(chat);
    expect(useUnread.getState().counts).toEqual({ [key!]: 2 });
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
