import { describe, expect, it } from 'vitest';
import type { MessengerPeer } from '../../core/messages/peers.ts';
import { sendKindOf } from './messaging.ts';
import { attachmentOf, happeningsOf, reportsOf } from './webhook-events.ts';

const ACCOUNT = '17841400000000001';
const ANNA = '6100000000000001';
const at = 1_795_000_000_000;
const from = (sender: string, recipient: string, rest: Record<string, unknown>) => ({ sender: { id: sender }, recipient: { id: recipient }, timestamp: at, ...rest });
const byCustomer = (rest: Record<string, unknown>) => from(ANNA, ACCOUNT, rest);

describe('what Meta posts of an Instagram account’s conversations', () => {
  it('reads a customer’s message, an echo of the account’s own, an unsend, an edit, a read and a press, each naming the customer', () => {
    const events = [
      byCustomer({ message: { mid: 'bWlkMQ', text: 'Hi', reply_to: { mid: 'bWlkMA' } } }),
      from(ACCOUNT, ANNA, { message: { mid: 'bWlkMg', text: 'Hello!', is_echo: true } }),
      byCustomer({ message: { mid: 'bWlkMQ', is_deleted: true } }),
      byCustomer({ message_edit: { mid: 'bWlkMQ', text: 'Hi there', num_edit: 1 } }),
      byCustomer({ read: { mid: 'bWlkMg' } }),
      byCustomer({ postback: { mid: 'cGIx', title: 'Где мой заказ?', payload: 'ORDER' } }),
      byCustomer({ postback: { payload: 'NO_TITLE' } }),
    ];
    expect(happeningsOf(ACCOUNT, events)).toEqual([
      { kind: 'message', peerId: ANNA, echo: false, mid: 'bWlkMQ', text: 'Hi', files: [], quotedMid: 'bWlkMA' },
      { kind: 'message', peerId: ANNA, echo: true, mid: 'bWlkMg', text: 'Hello!', files: [], quotedMid: null },
      { kind: 'delete', peerId: ANNA, mid: 'bWlkMQ' },
      { kind: 'edit', peerId: ANNA, mid: 'bWlkMQ', text: 'Hi there', at: new Date(at) },
      { kind: 'read', peerId: ANNA, mid: 'bWlkMg' },
      { kind: 'message', peerId: ANNA, echo: false, mid: 'cGIx', text: 'Где мой заказ?', files: [], quotedMid: null },
      { kind: 'message', peerId: ANNA, echo: false, mid: `pb.${at}.${ANNA}`, text: 'NO_TITLE', files: [], quotedMid: null },
    ]);
  });

  it('drops reactions, referrals, what Instagram cannot show, and anything not between the account and a customer', () => {
    const events = [
      byCustomer({ reaction: { mid: 'bWlkMQ', action: 'react', reaction: 'love' } }),
      byCustomer({ referral: { ref: 'x', source: 'ADS' } }),
      byCustomer({ message: { mid: 'bWlkMw', is_unsupported: true } }),
      byCustomer({ message: { mid: 'bWlkNA', attachments: [{ type: 'sticker', payload: { url: 'https://cdn.example/s.webp' } }] } }),
      from(ANNA, '17841499999999999', { message: { mid: 'bWlkNQ', text: 'to another account' } }),
      from(ACCOUNT, ANNA, { message: { mid: 'bWlkNg', text: 'from the account, no echo mark' } }),
      byCustomer({ message: { mid: 'bWlkNw', text: 'marked echo, from a customer', is_echo: true } }),
      from('not-an-id', ACCOUNT, { message: { mid: 'bWlkOA', text: 'x' } }),
      byCustomer({ message: { mid: 'has:colon', text: 'x' } }),
      byCustomer({ message: { text: 'no mid' } }),
      'not an event',
    ];
    expect(happeningsOf(ACCOUNT, events)).toEqual([]);
    expect(happeningsOf(ACCOUNT, 'not a list')).toEqual([]);
  });

  it('keeps a file’s or shared post’s CDN address as it is, typed by its name where it has one', () => {
    expect(attachmentOf({ type: 'image', payload: { url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1&signature=x' } })).toEqual({
      url: 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1&signature=x',
    });
    expect(attachmentOf({ type: 'file', payload: { url: 'https://cdn.fbsbx.com/v/t59/Offer%20v2.pdf?oh=1' } })).toEqual({
      url: 'https://cdn.fbsbx.com/v/t59/Offer%20v2.pdf?oh=1',
      name: 'Offer v2.pdf',
      mimetype: 'application/pdf',
    });
    expect(attachmentOf({ type: 'story_mention', payload: { url: 'https://cdninstagram.com/stories/1_n.mp4' } })).toMatchObject({ mimetype: 'video/mp4' });
    expect(attachmentOf({ type: 'image', payload: { url: 'javascript:alert(1)' } })).toBeNull();
    expect(attachmentOf({ type: 'template', payload: { url: 'https://x.example/' } })).toBeNull();
    expect(attachmentOf({ type: 'image' })).toBeNull();
  });
});

describe('reports of what happened, in the chats of the people named', () => {
  const anna: MessengerPeer = { peerId: ANNA, handle: 'anna.k', name: 'Anna K', checkedAt: new Date(at) };
  const people = new Map([[ANNA, anna]]);

  it('numbers each file of a message, then its words, and marks the account’s own as echoes', () => {
    const [message] = happeningsOf(ACCOUNT, [
      from(ACCOUNT, ANNA, { message: { mid: 'bWlk', is_echo: true, text: 'Look', attachments: [{ type: 'image', payload: { url: 'https://cdn.example/a.jpg' } }, { type: 'video', payload: { url: 'https://cdn.example/b.mp4' } }] } }),
    ]);
    const reports = reportsOf([message!], people);
    expect(reports.map((r) => (r.kind === 'message' ? [r.message.messengerMessageId, r.message.direction, r.message.echo, r.message.text ?? r.message.attachment?.url] : r.kind))).toEqual([
      ['bWlk', 'outbound', true, 'https://cdn.example/a.jpg'],
      ['bWlk:1', 'outbound', true, 'https://cdn.example/b.mp4'],
      ['bWlk:text', 'outbound', true, 'Look'],
    ]);
    expect(reports[0]).toMatchObject({ message: { chatType: 'instagram', chatId: 'anna.k', name: 'Anna K', username: null, phone: null } });
  });

  it('edits both a message and its words apart, and leaves out people not named', () => {
    const happenings = happeningsOf(ACCOUNT, [
      byCustomer({ message_edit: { mid: 'bWlk', text: 'Fixed' } }),
      from('6100000000000009', ACCOUNT, { read: { mid: 'bWlk' } }),
    ]);
    expect(reportsOf(happenings, people)).toEqual([
      { kind: 'edit', edit: { chatType: 'instagram', chatId: 'anna.k', text: 'Fixed', editedAt: new Date(at), messengerMessageId: 'bWlk' } },
      { kind: 'edit', edit: { chatType: 'instagram', chatId: 'anna.k', text: 'Fixed', editedAt: new Date(at), messengerMessageId: 'bWlk:text' } },
    ]);
  });
});

describe('how a file a send names is shown', () => {
  it('by its type, else by its name or its address’s', () => {
    expect(sendKindOf({ url: 'https://crm.example/f', mimetype: 'image/jpeg' })).toBe('image');
    expect(sendKindOf({ url: 'https://crm.example/f', mimetype: 'image/webp' })).toBe('file');
    expect(sendKindOf({ url: 'https://crm.example/files/clip.MOV' })).toBe('video');
    expect(sendKindOf({ url: 'https://crm.example/d?id=1', name: 'voice.m4a' })).toBe('audio');
    expect(sendKindOf({ url: 'https://crm.example/d?id=2', name: 'invoice.xlsx' })).toBe('file');
    expect(sendKindOf({ url: 'not a url' })).toBe('file');
  });
});
