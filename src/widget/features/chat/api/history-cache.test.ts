import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { BffMessage } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { fromAddEvent, fromBff, patchOfEvent, sending, type ChatMessage } from '../store/message.ts';
import { appendMessage, historyOf, keepUnsent, mergeNewest, patchMessage, pendingPatches, updateMessages, type HistoryData, type HistoryPage } from './history-cache.ts';

const CHAT = '00000000-0000-4000-8000-00000000c4a7';
const CHANNEL = '00000000-0000-4000-8000-0000000c4a11';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (n: number) => new Date(Date.UTC(2030, 0, 1, 12, 0, n)).toISOString();

const message = (n: number, over: Partial<BffMessage> = {}): ChatMessage =>
  fromBff({
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
  });

const page = (ns: number[], older: string | null = null, over: (n: number) => Partial<BffMessage> = () => ({})): HistoryPage => ({
  messages: ns.map((n) => message(n, over(n))),
  older_cursor: older,
});
/** Pages as the infinite query keeps them: the newest first. */
const history = (...pages: HistoryPage[]): HistoryData => ({ pages, pageParams: pages.map((_, i) => (i === 0 ? null : `c${i}`)) });
const texts = (data: HistoryData) => historyOf(data).messages.map((m) => m.text);

let position = 0;
const event = <N extends StreamEvent['name']>(name: N, payload: Extract<StreamEvent, { name: N }>['payload']): StreamEvent =>
  ({ id: `e${++position}`, position, name, payload, created_at: at(0) }) as StreamEvent;
const added = (n: number, over: Record<string, unknown> = {}) =>
  ({ message_id: id(n), channel_id: CHANNEL, direction: 'inbound', timestamp: Date.parse(at(n)), status: 'delivered', recipient: { chat_type: 'telegram', chat_id: '42' }, text: `m${n}`, ...over }) as Parameters<typeof fromAddEvent>[0];
const apply = (data: HistoryData, e: StreamEvent) => {
  const found = patchOfEvent(e)!;
  return patchMessage(data, found.keys, found.patch);
};

describe('a chat history in the query cache', () => {
  it('shows the pages oldest first, an older page repeating a message (moved between reads) once', () => {
    const data = history(page([4, 5, 6], 'c4'), page([1, 2, 3, 4]));
    expect(texts(data)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    expect(historyOf(data).olderCursor).toBeNull();
  });

  it('appends a live message at the newest end, once, with its quote filled from what is loaded', () => {
    let data = history(page([1, 2]));
    data = appendMessage(data, fromAddEvent(added(3, { quoted_message_id: id(1) }), historyOf(data).messages[0]));
    data = appendMessage(data, fromAddEvent(added(2), undefined));
    data = appendMessage(data, fromAddEvent(added(3), undefined));
    expect(texts(data)).toEqual(['m1', 'm2', 'm3']);
    expect(historyOf(data).messages[2]!.quoted_message).toMatchObject({ message_id: id(1), text: 'm1', direction: 'inbound' });
  });

  it('applies statuses forward only, edits and deletes; a deleted message keeps its text, marked', () => {
    let data = history(page([1, 2], null, () => ({ direction: 'outbound', status: 'sent' })));
    for (const e of [
      event('message.status_update', { message_id: id(1), request_id: null, status: 'read', reason: null }),
      event('message.status_update', { message_id: id(1), request_id: null, status: 'delivered', reason: null }),
      event('message.status_update', { message_id: id(2), request_id: null, status: 'failed', reason: 'bad_contact' }),
      event('message.edit', { message_id: id(2), crm_user_id: null, timestamp: Date.parse(at(30)), text: 'm2 fixed', old_text: 'm2' }),
      event('message.delete', { message_id: id(1), crm_user_id: null, timestamp: Date.parse(at(40)) }),
    ])
      data = apply(data, e).data;
    const [first, second] = historyOf(data).messages;
    expect(first).toMatchObject({ status: 'read', deleted: true, deleted_at: at(40), text: 'm1' });
    expect(second).toMatchObject({ status: 'failed', reason: 'bad_contact', text: 'm2 fixed', edited_at: at(30) });
  });

  it('keeps what events said of messages not loaded yet, and applies it when they come', () => {
    const queryClient = new QueryClient();
    const empty = history(page([]));
    for (const e of [
      event('message.delete', { message_id: id(2), crm_user_id: null, timestamp: Date.parse(at(50)) }),
      event('message.edit', { message_id: id(3), crm_user_id: null, timestamp: Date.parse(at(50)), text: 'new' }),
    ]) {
      const found = patchOfEvent(e)!;
      expect(patchMessage(empty, found.keys, found.patch).found).toBe(false);
      pendingPatches(queryClient).keep(found.keys, found.patch);
    }
    const loaded = page([2, 3]).messages.map((m) => pendingPatches(queryClient).apply(m));
    expect(loaded.map((m) => [m.text, m.deleted])).toEqual([
      ['m2', true],
      ['new', false],
    ]);
  });

  it("matches the agent's message to its statuses by request id, whichever of the answer and the stream comes first", () => {
    const queryClient = new QueryClient();
    let data = appendMessage(history(page([1])), sending('local-1', 'hi', new Date(at(10))));
    expect(historyOf(data).messages[1]).toMatchObject({ key: 'local-1', status: 'sending', message_id: null, direction: 'outbound' });
    // The stream is faster than the answer to the send: the status waits for the request id.
    const early = patchOfEvent(event('message.status_update', { message_id: id(7), request_id: 'req-1', status: 'sent', reason: null }))!;
    expect(patchMessage(data, early.keys, early.patch).found).toBe(false);
    pendingPatches(queryClient).keep(early.keys, early.patch);
    data = updateMessages(
      data,
      (m) => m.key === 'local-1',
      (m) => pendingPatches(queryClient).apply({ ...m, request_id: 'req-1', status: 'accepted' }),
    );
    data = apply(data, event('message.status_update', { message_id: id(7), request_id: 'req-1', status: 'delivered', reason: null })).data;
    expect(historyOf(data).messages[1]).toMatchObject({ key: 'local-1', message_id: id(7), request_id: 'req-1', status: 'delivered', text: 'hi' });

    // The newest page read again brings the same message: one row, same key, the status kept.
    const reread = keepUnsent(page([1, 7], null, (n) => (n === 7 ? { request_id: 'req-1', direction: 'outbound', status: 'sent', text: 'hi' } : {})), data);
    expect(reread.messages.map((m) => [m.key, m.status])).toEqual([
      [id(1), 'read'],
      ['local-1', 'delivered'],
    ]);
  });

  it('keeps what this frame is still sending when the newest page is read again', () => {
    const data = appendMessage(history(page([1])), sending('local-2', 'typing', new Date(at(9))));
    expect(keepUnsent(page([1, 2]), data).messages.map((m) => m.key)).toEqual([id(1), id(2), 'local-2']);
  });

  it('adds what a second read of the newest page brings after what is shown, before what is still being sent', () => {
    let data = history(page([3, 4], 'c3'), page([1, 2]));
    data = appendMessage(data, sending('local-9', 'typing', new Date(at(9))));
    // Another agent's reply (no message.add for it) and a status seen on the page.
    data = mergeNewest(data, page([4, 5], 'c4', (n) => (n === 4 ? { status: 'read' } : { direction: 'outbound' })));
    expect(historyOf(data).messages.map((m) => m.key)).toEqual([id(1), id(2), id(3), id(4), id(5), 'local-9']);
  });

  it('stays light on a long history: ten thousand messages, events applied by id', () => {
    const pages = Array.from({ length: 200 }, (_, p) => page(Array.from({ length: 50 }, (_, i) => (199 - p) * 50 + i), p < 199 ? 'c' : null));
    const data = apply(history(...pages), event('message.delete', { message_id: id(5), crm_user_id: null, timestamp: Date.parse(at(0)) })).data;
    const { messages } = historyOf(data);
    expect(messages).toHaveLength(10_000);
    expect(messages[0]!.text).toBe('m0');
    expect(messages.at(-1)!.text).toBe('m9999');
    expect(messages[5]!.deleted).toBe(true);
  });
});
