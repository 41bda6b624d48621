import { describe, expect, it } from 'vitest';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { Freshness } from '@/lib/event-stream.ts';
import { inScope, sameChat } from '../store/scope.ts';
import { applyToList } from './chat-list-cache.ts';
import { chatsOf, type ChatListData } from './get-chats.ts';

const CHANNEL = '00000000-0000-4000-8000-0000000c4a11';
const ref = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 12, minute)).toISOString();

function chat(n: number, minute: number, unanswered = 0, over: Partial<BffChat> = {}): BffChat {
  return {
    chat_ref: ref(n),
    channel_id: CHANNEL,
    transport: 'telegram',
    channel_name: null,
    chat_type: 'telegram',
    chat_id: String(n),
    username: null,
    phone: null,
    name: `Chat ${n}`,
    contact_name: null,
    messenger_name: `Chat ${n}`,
    unanswered_count: unanswered,
    last_activity_at: at(minute),
    last_message: { message_id: ref(1000 + n), direction: 'inbound', status: 'read', kind: 'text', text: `last of ${n}`, attachment_name: null, created_at: at(minute), deleted: false },
    ...over,
  };
}

let position = 0;
const event = <N extends StreamEvent['name']>(name: N, payload: Extract<StreamEvent, { name: N }>['payload'], pos = ++position): StreamEvent =>
  ({ id: `e${pos}`, position: pos, name, payload, created_at: at(0) }) as StreamEvent;
const list = (...pages: BffChat[][]): ChatListData => ({ pages: pages.map((chats, i) => ({ chats, next_cursor: i < pages.length - 1 ? `c${i}` : null })), pageParams: pages.map((_, i) => (i ? `c${i - 1}` : null)) });
const names = (data: ChatListData) => chatsOf(data).map((c) => c.name);
const fresh = () => {
  const f = new Freshness();
  return (chatRef: string, p: number) => f.isNewer(chatRef, p);
};

describe('the chat list in the query cache', () => {
  it('shows keyset pages in the server order, a chat that moved between pages once', () => {
    expect(names(list([chat(1, 50, 2), chat(2, 40), chat(3, 30)], [chat(3, 30), chat(4, 20)]))).toEqual(['Chat 1', 'Chat 2', 'Chat 3', 'Chat 4']);
  });

  it('moves a chat with a new inbound message up, and unanswered chats first', () => {
    const isNewer = fresh();
    const added = applyToList(
      list([chat(1, 50, 1), chat(2, 40), chat(3, 30)]),
      event('message.add', { message_id: ref(77), channel_id: CHANNEL, direction: 'inbound', timestamp: Date.parse(at(55)), status: 'delivered', recipient: { chat_type: 'telegram', chat_id: '3' }, text: 'hello again' }),
      isNewer,
    );
    expect(added.placed).toBe(true);
    // Chat 3 is newest now, but chat 1 still waits for an answer.
    expect(names(added.data)).toEqual(['Chat 1', 'Chat 3', 'Chat 2']);
    expect(chatsOf(added.data)[1]!.last_message).toMatchObject({ message_id: ref(77), text: 'hello again' });
    const counted = applyToList(added.data, event('chat.unanswered_update', { chat_ref: ref(3), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '3', unanswered_count: 1 }), isNewer);
    expect(names(counted.data)).toEqual(['Chat 3', 'Chat 1', 'Chat 2']);
  });

  it('keeps the count of the highest position when unanswered updates arrive out of order', () => {
    const isNewer = fresh();
    let data = list([chat(1, 50, 0), chat(2, 40)]);
    data = applyToList(data, event('chat.unanswered_update', { chat_ref: ref(2), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '2', unanswered_count: 0 }, 20), isNewer).data;
    data = applyToList(data, event('chat.unanswered_update', { chat_ref: ref(2), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '2', unanswered_count: 3 }, 19), isNewer).data;
    expect(chatsOf(data).find((c) => c.chat_ref === ref(2))!.unanswered_count).toBe(0);
  });

  it("updates a chat's last message on status, edit and delete", () => {
    const mine = chat(1, 50, 0, { last_message: { message_id: ref(9), direction: 'outbound', status: 'sent', kind: 'text', text: 'hi', attachment_name: null, created_at: at(50), deleted: false } });
    let data = list([mine]);
    for (const e of [
      event('message.status_update', { message_id: ref(9), request_id: null, status: 'read', reason: null }),
      event('message.status_update', { message_id: ref(9), request_id: null, status: 'delivered', reason: null }),
      event('message.edit', { message_id: ref(9), crm_user_id: null, timestamp: 1, text: 'hi there' }),
      event('message.delete', { message_id: ref(9), crm_user_id: null, timestamp: 2 }),
    ])
      data = applyToList(data, e, fresh()).data;
    expect(chatsOf(data)[0]!.last_message).toMatchObject({ status: 'read', text: 'hi there', deleted: true });
  });

  it("asks for the list again when it cannot place an event: a new chat, or a message no row shows got its first status (a refused one maybe only `failed`)", () => {
    const data = list([chat(1, 50)]);
    const newcomer = event('message.add', { message_id: ref(88), channel_id: CHANNEL, direction: 'inbound', timestamp: Date.parse(at(59)), status: 'delivered', recipient: { chat_type: 'telegram', chat_id: '9' }, text: 'new customer' });
    expect(applyToList(data, newcomer, fresh()).placed).toBe(false);
    expect(applyToList(data, event('message.status_update', { message_id: ref(1001), request_id: null, status: 'read', reason: null }), fresh()).placed).toBe(true);
    expect(applyToList(data, event('message.status_update', { message_id: ref(555), request_id: 'r', status: 'delivered', reason: null }), fresh()).placed).toBe(true);
    expect(applyToList(data, event('message.status_update', { message_id: ref(556), request_id: 'r2', status: 'sent', reason: null }), fresh()).placed).toBe(false);
    expect(applyToList(data, event('message.status_update', { message_id: ref(557), request_id: 'r3', status: 'failed', reason: 'chat_is_blocked' }), fresh()).placed).toBe(false);
  });
});

describe('chats named by the host or a card', () => {
  const session = (scope: 'global' | 'card', chats: { chat_type: 'telegram'; chat_id?: string; username?: string }[] = []) =>
    ({ kind: 'chats', scope, chats }) as unknown as Parameters<typeof inScope>[0];

  it('are in a card only when one of its keys matches', () => {
    expect(inScope(session('global'), { chat_type: 'telegram', chat_id: '1' })).toBe(true);
    expect(inScope(session('card', [{ chat_type: 'telegram', username: '@Bob' }]), { chat_type: 'telegram', chat_id: '1', username: 'bob' })).toBe(true);
    expect(inScope(session('card', [{ chat_type: 'telegram', chat_id: '2' }]), { chat_type: 'telegram', chat_id: '1' })).toBe(false);
  });

  it('are the same chat by key, on the same channel when both name one', () => {
    expect(sameChat({ chat_type: 'telegram', chat_id: '1', channel_id: 'a' }, { chat_type: 'telegram', chat_id: '1' })).toBe(true);
    expect(sameChat({ chat_type: 'telegram', chat_id: '1', channel_id: 'a' }, { chat_type: 'telegram', chat_id: '1', channel_id: 'b' })).toBe(false);
    expect(sameChat({ chat_type: 'telegram', chat_id: '1' }, { chat_type: 'whatsapp', chat_id: '1' })).toBe(false);
  });
});
