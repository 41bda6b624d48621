import { describe, expect, it } from 'vitest';
import type { EmbedSessionRecord } from './ports.ts';
import { chatInScope, eventAudiences, sessionAudiences, visibleTo } from './scope.ts';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';

const session = (over: Partial<EmbedSessionRecord>): EmbedSessionRecord => ({
  id: 'sess-1',
  accountId: A,
  kind: 'chats',
  secretHash: '',
  linkId: 'l',
  mintedBy: null,
  user: null,
  scope: 'global',
  chats: [],
  activeChat: null,
  transport: null,
  channelId: null,
  options: {},
  createdAt: new Date(0),
  expiresAt: new Date(0),
  maxExpiresAt: new Date(0),
  revokedAt: null,
  ...over,
});

const card = session({
  scope: 'card',
  chats: [
    { chat_type: 'telegram', username: 'Bob' },
    { chat_type: 'max', phone: '79990000001' },
    { chat_type: 'whatsapp', chat_id: '79990000002' },
    { chat_type: 'instagram', chat_id: 'Anna.K' },
  ],
});
const global = session({});
const connect = session({ kind: 'channels', scope: null });

const message = (accountId: string, recipient: object, name = 'message.add') => ({ accountId, name, payload: { recipient } });

describe('what a session may see', () => {
  it.each([
    [{ chat_type: 'telegram', chat_id: '5', username: 'bob' }, true],
    [{ chat_type: 'telegram', username: '@BOB' }, true],
    [{ chat_type: 'telegram', chat_id: '5' }, false],
    [{ chat_type: 'max', chat_id: '9', phone: '79990000001' }, true],
    [{ chat_type: 'whatsapp', chat_id: '79990000002' }, true],
    [{ chat_type: 'viber', chat_id: '79990000002' }, false],
    [{ chat_type: 'whatsapp', chat_id: '79990000003' }, false],
    [{ chat_type: 'instagram', chat_id: 'anna.k' }, true],
    [{ chat_type: 'instagram', chat_id: 'anna.kk' }, false],
  ] as const)('a card session and the chat %j: %s', (chat, allowed) => {
    expect(chatInScope(card, chat)).toBe(allowed);
    expect(visibleTo(card, message(A, chat))).toBe(allowed);
    expect(chatInScope(global, chat)).toBe(true);
    expect(chatInScope(connect, chat)).toBe(false);
  });

  it('reads the chat from top-level fields as well as the recipient', () => {
    const status = { accountId: A, name: 'message.status_update', payload: { chat_type: 'whatsapp', chat_id: '79990000002', status: 'read' } };
    expect(visibleTo(card, status)).toBe(true);
    expect(visibleTo(card, { ...status, payload: { ...status.payload, chat_id: '1' } })).toBe(false);
  });

  it('gives chat events whose chat cannot be told to global frames only', () => {
    const unknown = { accountId: A, name: 'message.delete', payload: { message_id: 'm1' } };
    expect(visibleTo(global, unknown)).toBe(true);
    expect(visibleTo(card, unknown)).toBe(false);
    expect(visibleTo(connect, unknown)).toBe(false);
  });

  it('never crosses accounts', () => {
    const chat = { chat_type: 'whatsapp', chat_id: '79990000002' };
    for (const s of [card, global, connect]) {
      expect(visibleTo({ ...s, accountId: B }, message(A, chat))).toBe(false);
      expect(visibleTo({ ...s, accountId: B }, { accountId: A, name: 'channel.status_update', payload: {} })).toBe(false);
      const mine = new Set(sessionAudiences({ ...s, accountId: B }));
      expect(eventAudiences(message(A, chat)).some((x) => mine.has(x))).toBe(false);
    }
  });

  it('shows QR codes to connect frames only, channel statuses and template moderation to chat frames too', () => {
    const qr = { accountId: A, name: 'channel.qr_update', payload: { channel_id: 'c' } };
    const status = { accountId: A, name: 'channel.status_update', payload: { channel_id: 'c' } };
    const template = { accountId: A, name: 'waba_template.status_update', payload: {} };
    expect([card, global, connect].map((s) => visibleTo(s, qr))).toEqual([false, false, true]);
    expect([card, global, connect].map((s) => visibleTo(s, status))).toEqual([true, true, true]);
    expect([card, global, connect].map((s) => visibleTo(s, template))).toEqual([true, true, false]);
    expect(visibleTo(connect, message(A, { chat_type: 'whatsapp', chat_id: '1' }))).toBe(false);
  });

  it('pushes nothing that is not part of the stream', () => {
    expect(eventAudiences({ accountId: A, name: 'messages_dump.status_update', payload: {} })).toEqual([]);
  });
});
