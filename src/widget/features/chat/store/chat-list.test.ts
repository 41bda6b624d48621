import { describe, expect, it } from 'vitest';
import type { BffChat, ChatPage } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { chatListReducer, initialChatList, type ChatListAction, type ChatListState } from './chat-list.ts';
import { inScope, sameChat } from './scope.ts';

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
    last_message: {
      message_id: ref(1000 + n),
      direction: 'inbound',
      status: 'read',
      kind: 'text',
      text: `last of ${n}`,
      attachment_name: null,
      created_at: at(minute),
      deleted: false,
    },
    ...over,
  };
}

let position = 0;
const event = <N extends StreamEvent['name']>(name: N, payload: Extract<StreamEvent, { name: N }>['payload'], pos = ++position): ChatListAction => ({
  type: 'event',
  event: { id: `e${pos}`, position: pos, name, payload, created_at: at(0) } as StreamEvent,
});
const pageOf = (chats: BffChat[], next: string | null = null): ChatPage => ({ chats, next_cursor: next });
const run = (...actions: ChatListAction[]): ChatListState => actions.reduce(chatListReducer, initialChatList());
const names = (s: ChatListState) => s.chats.map((c) => c.name);

describe('the chat list', () => {
  it('follows keyset pages without repeating a chat that moved between pages', () => {
    const s = run(
      { type: 'page', query: '', page: pageOf([chat(1, 50, 2), chat(2, 40), chat(3, 30)], 'c1'), mode: 'first' },
      { type: 'loadingMore' },
      { type: 'page', query: '', page: pageOf([chat(3, 30), chat(4, 20)], null), mode: 'more' },
    );
    expect(names(s)).toEqual(['Chat 1', 'Chat 2', 'Chat 3', 'Chat 4']);
    expect(s).toMatchObject({ nextCursor: null, loadingMore: false, phase: 'ready' });
  });

  it('moves a chat with a new inbound message up, and unanswered chats first', () => {
    const s = run(
      { type: 'page', query: '', page: pageOf([chat(1, 50, 1), chat(2, 40), chat(3, 30)]), mode: 'first' },
      event('message.add', {
        message_id: ref(77),
        channel_id: CHANNEL,
        direction: 'inbound',
        timestamp: Date.parse(at(55)),
        status: 'delivered',
        recipient: { chat_type: 'telegram', chat_id: '3' },
        text: 'hello again',
      }),
    );
    // Chat 3 is newest now, but chat 1 still waits for an answer.
    expect(names(s)).toEqual(['Chat 1', 'Chat 3', 'Chat 2']);
    expect(s.chats[1]!.last_message).toMatchObject({ message_id: ref(77), text: 'hello again' });

    const counted = chatListReducer(
      s,
      event('chat.unanswered_update', { chat_ref: ref(3), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '3', unanswered_count: 1 }),
    );
    // Both wait now: the newer activity goes first.
    expect(names(counted)).toEqual(['Chat 3', 'Chat 1', 'Chat 2']);
  });

  it('keeps the count of the highest position when unanswered updates arrive out of order', () => {
    const s = run(
      { type: 'page', query: '', page: pageOf([chat(1, 50, 0), chat(2, 40)]), mode: 'first' },
      event('chat.unanswered_update', { chat_ref: ref(2), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '2', unanswered_count: 0 }, 20),
      event('chat.unanswered_update', { chat_ref: ref(2), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '2', unanswered_count: 3 }, 19),
    );
    expect(s.chats.find((c) => c.chat_ref === ref(2))!.unanswered_count).toBe(0);
  });

  it("updates a chat's last message on status, edit and delete", () => {
    const mine = chat(1, 50, 0, {
      last_message: { message_id: ref(9), direction: 'outbound', status: 'sent', kind: 'text', text: 'hi', attachment_name: null, created_at: at(50), deleted: false },
    });
    const s = run(
      { type: 'page', query: '', page: pageOf([mine]), mode: 'first' },
      event('message.status_update', { message_id: ref(9), request_id: null, status: 'read', reason: null }),
      event('message.status_update', { message_id: ref(9), request_id: null, status: 'delivered', reason: null }),
      event('message.edit', { message_id: ref(9), crm_user_id: null, timestamp: 1, text: 'hi there' }),
      event('message.delete', { message_id: ref(9), crm_user_id: null, timestamp: 2 }),
    );
    expect(s.chats[0]!.last_message).toMatchObject({ status: 'read', text: 'hi there', deleted: true });
  });

  it('counts what it cannot place, and merges the first page read again', () => {
    const s = run(
      { type: 'page', query: '', page: pageOf([chat(1, 50), chat(2, 40)], 'c1'), mode: 'first' },
      event('message.add', {
        message_id: ref(88),
        channel_id: CHANNEL,
        direction: 'inbound',
        timestamp: Date.parse(at(59)),
        status: 'delivered',
        recipient: { chat_type: 'telegram', chat_id: '9' },
        text: 'new customer',
      }),
    );
    expect(s.stale).toBe(1);
    const merged = chatListReducer(s, { type: 'page', query: '', page: pageOf([chat(9, 59, 1), chat(1, 50)], 'c2'), mode: 'refresh' });
    expect(names(merged)).toEqual(['Chat 9', 'Chat 1', 'Chat 2']);
    // The pages already read go on from where they were.
    expect(merged.nextCursor).toBe('c1');
  });

  it("reads the list again when a message no row shows got its first status (another agent's send)", () => {
    const s = run(
      { type: 'page', query: '', page: pageOf([chat(1, 50)]), mode: 'first' },
      event('message.status_update', { message_id: ref(1001), request_id: null, status: 'read', reason: null }),
      event('message.status_update', { message_id: ref(555), request_id: 'r', status: 'delivered', reason: null }),
    );
    expect(s.stale).toBe(0);
    expect(chatListReducer(s, event('message.status_update', { message_id: ref(556), request_id: 'r2', status: 'sent', reason: null })).stale).toBe(1);
  });

  it('counts events that came while the first page was being read', () => {
    const s = run(event('chat.unanswered_update', { chat_ref: ref(1), channel_id: CHANNEL, chat_type: 'telegram', chat_id: '1', unanswered_count: 1 }));
    expect(s).toMatchObject({ phase: 'loading', stale: 1 });
  });

  it('starts over for a new search and drops answers to an old one', () => {
    const s = run(
      { type: 'page', query: '', page: pageOf([chat(1, 50)]), mode: 'first' },
      { type: 'search', query: 'bob' },
      { type: 'page', query: '', page: pageOf([chat(2, 40)]), mode: 'more' },
    );
    expect(s).toMatchObject({ query: 'bob', phase: 'loading', chats: [] });
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
