import { describe, expect, it } from 'vitest';
import { historyOf, type HistoryData } from '../api/history-cache.ts';
import { fromAddEvent, fromBff, type ChatMessage } from './message.ts';
import { foldCaptions } from './captions.ts';

const at = '2026-11-29T08:00:00.000Z';
const message = (id: string, content: Partial<ChatMessage>): ChatMessage =>
  fromBff({
    message_id: id,
    request_id: null,
    chat_ref: 'c',
    channel_id: 'ch',
    direction: 'inbound',
    status: 'delivered',
    reason: null,
    text: null,
    attachment: null,
    template: null,
    keyboard: null,
    quoted_message: null,
    author: null,
    created_at: at,
    edited_at: null,
    deleted_at: null,
    deleted: false,
    ...content,
  } as Parameters<typeof fromBff>[0]);
const photo = { url: 'https://x/sofa.png', name: 'sofa.png', mimetype: 'image/png' };

describe('a file and its caption, drawn as one message', () => {
  it('folds words a live event names as the file’s caption at once, without reading the page again', () => {
    const recipient = { chat_type: 'telegram' as const, chat_id: '5' };
    const live = (id: string, fields: Record<string, unknown>) => fromAddEvent({ message_id: id, channel_id: 'ch', direction: 'inbound', timestamp: 1, status: 'sent', recipient, ...fields }, undefined);
    const shown = foldCaptions([live('f', { attachment: photo }), live('w', { text: 'is it blue?', caption_of: 'f' })]);
    expect(shown.map((m) => [m.message_id, m.text, m.attachment?.name, m.caption_id])).toEqual([['f', 'is it blue?', 'sofa.png', 'w']]);
  });

  it('puts the words under the file they are the caption of, named by the words’ id too', () => {
    const shown = foldCaptions([
      message('f1', { attachment: photo }),
      message('w1', { text: 'is it blue?', caption_of: 'f1', edited_at: '2026-11-29T08:01:00.000Z' }),
      message('t1', { text: 'hello?' }),
    ]);
    expect(shown.map((m) => [m.message_id, m.text, m.attachment?.name ?? null, m.caption_id ?? null, m.edited_at])).toEqual([
      ['f1', 'is it blue?', 'sofa.png', 'w1', '2026-11-29T08:01:00.000Z'],
      ['t1', 'hello?', null, null, null],
    ]);
  });

  it('leaves words apart whose file is not just before them (another page, or another message between)', () => {
    const messages = [message('f1', { attachment: photo }), message('t1', { text: 'between' }), message('w1', { text: 'late words', caption_of: 'f1' })];
    expect(foldCaptions(messages).map((m) => m.message_id)).toEqual(['f1', 't1', 'w1']);
    expect(foldCaptions([message('w2', { text: 'orphan', caption_of: 'f0' })]).map((m) => m.text)).toEqual(['orphan']);
  });

  it('is what the history shows', () => {
    const data: HistoryData = { pages: [{ messages: [message('f1', { attachment: photo }), message('w1', { text: 'blue?', caption_of: 'f1' })], older_cursor: null }], pageParams: [null] };
    expect(historyOf(data).messages.map((m) => [m.message_id, m.text])).toEqual([['f1', 'blue?']]);
  });

  it('joins words that open a page to their file once the page before is read', () => {
    const newest = { messages: [message('w1', { text: 'blue?', caption_of: 'f1' }), message('t1', { text: 'hello?' })], older_cursor: 'c1' };
    const alone: HistoryData = { pages: [newest], pageParams: [null] };
    expect(historyOf(alone).messages.map((m) => [m.message_id, m.text])).toEqual([['w1', 'blue?'], ['t1', 'hello?']]);
    const both: HistoryData = { pages: [newest, { messages: [message('f1', { attachment: photo })], older_cursor: null }], pageParams: [null, 'c1'] };
    expect(historyOf(both).messages.map((m) => [m.message_id, m.text, m.caption_id ?? null])).toEqual([
      ['f1', 'blue?', 'w1'],
      ['t1', 'hello?', null],
    ]);
  });
});
