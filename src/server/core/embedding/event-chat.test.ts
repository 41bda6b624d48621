import { describe, expect, it } from 'vitest';
import type { ChatRecord } from '../messages/ports.ts';
import { chatOfEvent, eventChats } from './event-chat.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const chat = (id: string, accountId: string): ChatRecord => ({
  id,
  accountId,
  channelId: 'c',
  chatType: 'telegram',
  chatId: `tg-${id.slice(0, 4)}`,
  username: null,
  phone: null,
  name: null,
  unanswered: 2,
  lastMessageAt: null,
  createdAt: new Date(0),
});

describe('the chats of a batch of events', () => {
  it('reads every chat named by an ordering key once, and keeps another account’s chat out', async () => {
    const calls: string[][] = [];
    const store = { getMany: async (ids: string[]) => (calls.push(ids), [chat(A, 'acc-1'), chat(B, 'acc-2')]) };
    const events = [
      { accountId: 'acc-1', orderingKey: `chat:${A}` },
      { accountId: 'acc-1', orderingKey: `chat:${A}` },
      { accountId: 'acc-1', orderingKey: `chat:${B}` },
      { accountId: 'acc-1', orderingKey: 'channel:x' },
    ];
    const chats = await eventChats(store, events);
    expect(calls).toEqual([[A, B]]);
    expect(chats.records.get(A)?.unanswered).toBe(2);
    expect(chats.records.get(B)).toBeNull();

    // chatOfEvent answers from the batch's reads without asking the store again.
    const get = async () => {
      throw new Error('not expected');
    };
    const status = { accountId: 'acc-1', name: 'message.status_update', payload: { message_id: 'm' }, orderingKey: `chat:${A}` };
    expect(await chatOfEvent({ get }, status, chats.identities)).toEqual({ chat_type: 'telegram', chat_id: 'tg-1111', username: null, phone: null });
  });

  it('asks nothing when no event names a chat', async () => {
    const store = { getMany: async () => expect.unreachable() as never };
    expect((await eventChats(store, [{ accountId: 'acc-1', orderingKey: null }])).records.size).toBe(0);
  });
});
