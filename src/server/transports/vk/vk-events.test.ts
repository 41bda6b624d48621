import { describe, expect, it } from 'vitest';
import { eventOf } from './vk-events.ts';

const photo = {
  type: 'photo',
  photo: {
    id: 457239017,
    owner_id: 1001,
    sizes: [
      { type: 's', url: 'https://sun9-1.userapi.com/s.jpg', width: 75, height: 56 },
      { type: 'w', url: 'https://sun9-1.userapi.com/w.jpg', width: 1280, height: 960 },
      { type: 'x', url: 'https://sun9-1.userapi.com/x.jpg', width: 604, height: 453 },
    ],
  },
};
const doc = { type: 'doc', doc: { id: 5, owner_id: 1001, title: 'price.pdf', ext: 'pdf', size: 2048, url: 'https://vk.com/doc1001_5?hash=abc' } };

describe('VK’s callbacks as the gateway reads them', () => {
  it('reads a customer’s message (API 5.103+: object.message): each file, then the words as the caption, the quote, the customer', () => {
    const event = eventOf({
      type: 'message_new',
      group_id: 77,
      object: { message: { id: 31, peer_id: 1001, from_id: 1001, text: 'hello', attachments: [photo, doc], reply_message: { id: 29 } }, client_info: {} },
    });
    expect(event).toMatchObject({ kind: 'reports', customer: '1001' });
    const messages = event.kind === 'reports' ? event.reports.map((r) => (r.kind === 'message' ? r.message : null)) : [];
    expect(messages).toEqual([
      expect.objectContaining({ chatType: 'vk', chatId: '1001', direction: 'inbound', text: null, attachment: { url: 'https://sun9-1.userapi.com/w.jpg', mimetype: 'image/jpeg' }, messengerMessageId: '31', quotedMessengerId: '29' }),
      expect.objectContaining({ attachment: { url: 'https://vk.com/doc1001_5?hash=abc', name: 'price.pdf', mimetype: 'application/pdf', size: 2048 }, messengerMessageId: '31:1' }),
      expect.objectContaining({ text: 'hello', attachment: null, messengerMessageId: '31:caption', quotedMessengerId: '29' }),
    ]);
    const words = eventOf({ type: 'message_new', object: { message: { id: 33, peer_id: 1001, text: 'only words' } } });
    expect(words.kind === 'reports' && words.reports.map((r) => r.kind === 'message' && r.message.messengerMessageId)).toEqual(['33']);
  });

  it('numbers a file without words as the message itself', () => {
    const event = eventOf({ type: 'message_new', object: { message: { id: 32, peer_id: 1001, text: '', attachments: [photo] } } });
    expect(event.kind === 'reports' && event.reports.map((r) => r.kind === 'message' && r.message.messengerMessageId)).toEqual(['32']);
  });

  it('reads the community’s own message as an echo, outbound, and an edit as the new words of the message or of its file', () => {
    const reply = eventOf({ type: 'message_reply', object: { id: 40, peer_id: 1001, from_id: -77, text: 'answered in VK', out: 1 } });
    expect(reply).toMatchObject({ kind: 'reports', customer: null, reports: [{ kind: 'message', message: { direction: 'outbound', echo: true, messengerMessageId: '40', text: 'answered in VK' } }] });
    const edit = eventOf({ type: 'message_edit', object: { id: 31, peer_id: 1001, text: 'hello again' } });
    expect(edit).toEqual({
      kind: 'reports',
      customer: null,
      reports: ['31', '31:caption'].map((messengerMessageId) => ({ kind: 'edit', edit: { chatType: 'vk', chatId: '1001', messengerMessageId, text: 'hello again' } })),
    });
  });

  it('leaves group chats, other communities, allow and deny, unknown events and broken objects unread', () => {
    expect(eventOf({ type: 'message_new', object: { message: { id: 1, peer_id: 2000000001, text: 'in a chat' } } })).toMatchObject({ kind: 'reports', reports: [] });
    expect(eventOf({ type: 'message_new', object: { message: { id: 1, peer_id: -5, text: 'a community' } } })).toMatchObject({ kind: 'reports', reports: [] });
    expect(eventOf({ type: 'message_deny', object: { user_id: 1001 } })).toEqual({ kind: 'none' });
    expect(eventOf({ type: 'message_allow', object: { user_id: 1001, key: 'x' } })).toEqual({ kind: 'none' });
    expect(eventOf({ type: 'wall_post_new', object: {} })).toEqual({ kind: 'none' });
    expect(eventOf({ type: 'message_edit', object: { id: 'x', peer_id: 1001, text: 'y' } })).toEqual({ kind: 'none' });
    expect(eventOf({ type: 'confirmation', group_id: 77 })).toEqual({ kind: 'confirmation' });
  });
});
