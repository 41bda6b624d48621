import { describe, expect, it } from 'vitest';
import type { BffMessage, MessagePage } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { emptyHistory, historyReducer, type HistoryAction, type HistoryState } from './history.ts';

const CHAT = '00000000-0000-4000-8000-00000000c4a7';
const CHANNEL = '00000000-0000-4000-8000-0000000c4a11';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (n: number) => new Date(Date.UTC(2030, 0, 1, 12, 0, n)).toISOString();

function message(n: number, over: Partial<BffMessage> = {}): BffMessage {
  return {
    message_id: id(n),
    request_id: null,
    chat_ref: CHAT,
    channel_id: CHANNEL,
    direction: 'inbound',
    status: 'read',
    reason: null,
    text: `m${n}`,
    attachment: null,
    template: null,
    keyboard: null,
    quoted_message: null,
    author: null,
    created_at: at(n),
    edited_at: null,
    deleted_at: null,
    deleted: false,
    ...over,
  };
}

const page = (ns: number[], older: string | null = null, over: (n: number) => Partial<BffMessage> = () => ({})): MessagePage => ({
  messages: ns.map((n) => message(n, over(n))),
  older_cursor: older,
  newer_cursor: null,
});

let position = 0;
const event = <N extends StreamEvent['name']>(name: N, payload: Extract<StreamEvent, { name: N }>['payload']): StreamEvent =>
  ({ id: `e${++position}`, position, name, payload, created_at: at(0) }) as StreamEvent;

const added = (n: number, over: Record<string, unknown> = {}): HistoryAction => ({
  type: 'added',
  payload: {
    message_id: id(n),
    channel_id: CHANNEL,
    direction: 'inbound',
    timestamp: Date.parse(at(n)),
    status: 'delivered',
    recipient: { chat_type: 'telegram', chat_id: '42' },
    text: `m${n}`,
    ...over,
  },
});

const run = (...actions: HistoryAction[]): HistoryState => actions.reduce(historyReducer, emptyHistory(CHAT));
const texts = (s: HistoryState) => s.messages.map((m) => m.text);

describe('the history of the open chat', () => {
  it('shows the newest page oldest first, then prepends older pages without repeating a message', () => {
    const s = run(
      { type: 'page', chatRef: CHAT, page: page([4, 5, 6], 'c4'), part: 'newest' },
      { type: 'loadingOlder' },
      // The older page overlaps by one (a message moved between reads): it is shown once.
      { type: 'page', chatRef: CHAT, page: page([1, 2, 3, 4], null), part: 'older' },
    );
    expect(texts(s)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(s).toMatchObject({ phase: 'ready', olderCursor: null, loadingOlder: false });
  });

  it('keeps live messages that came while the first page was read after it, each once', () => {
    const s = run(added(6), added(7), { type: 'page', chatRef: CHAT, page: page([4, 5, 6]), part: 'newest' });
    expect(texts(s)).toEqual(['m4', 'm5', 'm6', 'm7']);
    expect(s.messages.map((m) => m.key)).toEqual([id(4), id(5), id(6), id(7)]);
  });

  it('appends a live message at the newest end, and ignores it when it is already shown', () => {
    const s = run({ type: 'page', chatRef: CHAT, page: page([1, 2]), part: 'newest' }, added(3), added(2), added(3));
    expect(texts(s)).toEqual(['m1', 'm2', 'm3']);
  });

  it('fills a quote of a live message from the loaded history', () => {
    const s = run({ type: 'page', chatRef: CHAT, page: page([1]), part: 'newest' }, added(2, { quoted_message_id: id(1) }), added(3, { quoted_message_id: id(99) }));
    expect(s.messages[1]!.quoted_message).toMatchObject({ message_id: id(1), text: 'm1', direction: 'inbound' });
    expect(s.messages[2]!.quoted_message).toMatchObject({ message_id: id(99), text: null });
  });

  it('ignores a page of a chat that is no longer open', () => {
    const s = run({ type: 'page', chatRef: 'another', page: page([1]), part: 'newest' });
    expect(s).toMatchObject({ phase: 'loading', messages: [] });
  });

  it('applies statuses forward only, edits and deletes; a deleted message keeps its text, marked', () => {
    const s = run(
      { type: 'page', chatRef: CHAT, page: page([1, 2], null, () => ({ direction: 'outbound', status: 'sent' })), part: 'newest' },
      { type: 'event', event: event('message.status_update', { message_id: id(1), request_id: null, status: 'read', reason: null }) },
      { type: 'event', event: event('message.status_update', { message_id: id(1), request_id: null, status: 'delivered', reason: null }) },
      { type: 'event', event: event('message.status_update', { message_id: id(2), request_id: null, status: 'failed', reason: 'bad_contact' }) },
      { type: 'event', event: event('message.edit', { message_id: id(2), crm_user_id: null, timestamp: Date.parse(at(30)), text: 'm2 fixed', old_text: 'm2' }) },
      { type: 'event', event: event('message.delete', { message_id: id(1), crm_user_id: null, timestamp: Date.parse(at(40)) }) },
    );
    expect(s.messages[0]).toMatchObject({ status: 'read', deleted: true, deleted_at: at(40), text: 'm1' });
    expect(s.messages[1]).toMatchObject({ status: 'failed', reason: 'bad_contact', text: 'm2 fixed', edited_at: at(30) });
  });

  it('keeps what events said of messages not loaded yet and applies it when their page comes', () => {
    const s = run(
      { type: 'event', event: event('message.delete', { message_id: id(2), crm_user_id: null, timestamp: Date.parse(at(50)) }) },
      { type: 'event', event: event('message.edit', { message_id: id(3), crm_user_id: null, timestamp: Date.parse(at(50)), text: 'new' }) },
      { type: 'page', chatRef: CHAT, page: page([2, 3]), part: 'newest' },
    );
    expect(s.messages.map((m) => [m.text, m.deleted])).toEqual([
      ['m2', true],
      ['new', false],
    ]);
  });

  it("shows the agent's message at once and matches it to its statuses, whichever comes first", () => {
    const now = new Date(at(10));
    const before = run({ type: 'page', chatRef: CHAT, page: page([1]), part: 'newest' }, { type: 'sending', key: 'local-1', text: 'hi', now });
    expect(before.messages[1]).toMatchObject({ key: 'local-1', status: 'sending', message_id: null, direction: 'outbound' });

    // The stream is faster than the answer to the send.
    const s = [
      { type: 'event', event: event('message.status_update', { message_id: id(7), request_id: 'req-1', status: 'sent', reason: null }) },
      { type: 'sent', key: 'local-1', requestId: 'req-1' },
      { type: 'event', event: event('message.status_update', { message_id: id(7), request_id: 'req-1', status: 'delivered', reason: null }) },
    ].reduce((state, a) => historyReducer(state, a as HistoryAction), before);
    expect(s.messages).toHaveLength(2);
    expect(s.messages[1]).toMatchObject({ key: 'local-1', message_id: id(7), request_id: 'req-1', status: 'delivered', text: 'hi' });

    // A later read of the newest page brings the same message: it stays one, under the same key.
    const reread = historyReducer(s, { type: 'page', chatRef: CHAT, page: { ...page([1]), messages: [message(1), message(7, { request_id: 'req-1', direction: 'outbound', status: 'sent', text: 'hi' })] }, part: 'newest' });
    expect(reread.messages.map((m) => [m.key, m.status])).toEqual([
      [id(1), 'read'],
      ['local-1', 'delivered'],
    ]);
  });

  it('takes back a message the gateway refused', () => {
    const s = run({ type: 'page', chatRef: CHAT, page: page([1]), part: 'newest' }, { type: 'sending', key: 'local-2', text: 'x', now: new Date() }, { type: 'sendFailed', key: 'local-2' });
    expect(texts(s)).toEqual(['m1']);
  });

  it('stays light on a long history: ten thousand messages, events applied by id', () => {
    let s = run({ type: 'page', chatRef: CHAT, page: page(Array.from({ length: 50 }, (_, i) => 9950 + i), 'c'), part: 'newest' });
    for (let p = 198; p >= 0; p--) {
      s = historyReducer(s, { type: 'page', chatRef: CHAT, page: page(Array.from({ length: 50 }, (_, i) => p * 50 + i), p ? 'c' : null), part: 'older' });
    }
    s = historyReducer(s, { type: 'event', event: event('message.delete', { message_id: id(5), crm_user_id: null, timestamp: Date.parse(at(0)) }) });
    expect(s.messages).toHaveLength(10_000);
    expect(s.messages[0]!.text).toBe('m0');
    expect(s.messages.at(-1)!.text).toBe('m9999');
    expect(s.messages[5]!.deleted).toBe(true);
  });

  it('adds what a second read of the newest page brings after what is shown, before what is still being sent', () => {
    const s = run(
      { type: 'page', chatRef: CHAT, page: page([3, 4], 'c3'), part: 'newest' },
      { type: 'loadingOlder' },
      { type: 'page', chatRef: CHAT, page: page([1, 2]), part: 'older' },
      { type: 'sending', key: 'local-9', text: 'typing', now: new Date(at(9)) },
      // Another agent's reply (no message.add for it) and a status seen on the page.
      { type: 'page', chatRef: CHAT, page: page([4, 5], 'c4', (n) => (n === 4 ? { status: 'read', text: 'm4' } : { direction: 'outbound' })), part: 'again' },
    );
    expect(s.messages.map((m) => m.key)).toEqual([id(1), id(2), id(3), id(4), id(5), 'local-9']);
    expect(s.olderCursor).toBeNull();
  });

  it('shows a sent message once when a read of the newest page brought it before the answer to the send', () => {
    const s = run(
      { type: 'page', chatRef: CHAT, page: page([1]), part: 'newest' },
      { type: 'sending', key: 'local-3', text: 'hi', now: new Date(at(5)) },
      { type: 'page', chatRef: CHAT, page: page([1, 2], null, (n) => (n === 2 ? { request_id: 'req-3', direction: 'outbound', status: 'sent', text: 'hi' } : {})), part: 'again' },
      { type: 'sent', key: 'local-3', requestId: 'req-3' },
    );
    expect(s.messages.map((m) => [m.message_id, m.text])).toEqual([
      [id(1), 'm1'],
      [id(2), 'hi'],
    ]);
  });
});
