import { describe, expect, it } from 'vitest';
import { bridgeProtocol, type HostToFrameMessage } from '../../contract/bridge.ts';
import { createHostBridge, resolveHostOrigin, type BridgeMessageEvent, type BridgeWindow } from './host-bridge.ts';

const HOST = 'https://crm.example.com';

/** A stand-in window: records what is posted to the parent and lets a test deliver message events. */
function fakeWindow() {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  const listeners = new Set<(event: BridgeMessageEvent) => void>();
  const parent = { postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }) };
  const win: BridgeWindow = {
    parent,
    addEventListener: (_type, l) => listeners.add(l),
    removeEventListener: (_type, l) => listeners.delete(l),
  };
  const deliver = (event: Partial<BridgeMessageEvent>) =>
    listeners.forEach((l) => l({ origin: HOST, source: parent, data: undefined, ...event }));
  return { win, parent, posted, deliver, listeners };
}

const openChat = { protocol: bridgeProtocol, type: 'open_chat', payload: { chat_type: 'telegram', chat_id: '42' } };

describe('host bridge', () => {
  it('posts typed messages to the exact host origin, never to *', () => {
    const { win, posted } = fakeWindow();
    const bridge = createHostBridge({ window: win, hostOrigin: HOST, onMessage: () => {} });
    bridge.post({ type: 'ready', payload: { kind: 'chats', user_id: 'u1' } });
    bridge.post({ type: 'unanswered_count_changed', payload: { total: 3 } });
    expect(posted).toEqual([
      { message: { protocol: bridgeProtocol, type: 'ready', payload: { kind: 'chats', user_id: 'u1' } }, targetOrigin: HOST },
      { message: { protocol: bridgeProtocol, type: 'unanswered_count_changed', payload: { total: 3 } }, targetOrigin: HOST },
    ]);
  });

  it('posts a deal message in the protocol and, beside it, in the original service\'s WZ_* form, to the same origin', () => {
    const { win, posted } = fakeWindow();
    const bridge = createHostBridge({ window: win, hostOrigin: HOST, onMessage: () => {} });
    const chat = { channel_id: 'ch-1', chat_type: 'whatsapp' as const, chat_id: '79001112233', user_id: 'u1' };
    bridge.post({ type: 'deal_to_create', payload: chat });
    bridge.post({ type: 'deal_opened', payload: { ...chat, deal: { id: 'd-1', name: 'Order 1', uri: 'https://crm.example.com/d/1', closed: false } } });
    const data = { chatType: 'whatsapp', chatId: '79001112233', channelId: 'ch-1', userId: 'u1' };
    expect(posted.map((p) => p.message)).toEqual([
      { protocol: bridgeProtocol, type: 'deal_to_create', payload: chat },
      { type: 'WZ_CREATE_ENTITY', data },
      { protocol: bridgeProtocol, type: 'deal_opened', payload: { ...chat, deal: { id: 'd-1', name: 'Order 1', uri: 'https://crm.example.com/d/1', closed: false } } },
      { type: 'WZ_OPEN_ENTITY', data: { ...data, entity: { id: 'd-1', name: 'Order 1', link: 'https://crm.example.com/d/1', closed: false } } },
    ]);
    expect(posted.every((p) => p.targetOrigin === HOST)).toBe(true);
  });

  it.each(['*', 'https://crm.example.com/', 'https://crm.example.com/app', 'null', ''])('refuses %j as the host origin', (origin) => {
    expect(() => createHostBridge({ window: fakeWindow().win, hostOrigin: origin, onMessage: () => {} })).toThrow();
  });

  it('refuses to post a malformed message', () => {
    const { win, posted } = fakeWindow();
    const bridge = createHostBridge({ window: win, hostOrigin: HOST, onMessage: () => {} });
    expect(() => bridge.post({ type: 'unanswered_count_changed', payload: { total: -1 } })).toThrow();
    expect(posted).toEqual([]);
  });

  it('hands on a well-formed message from the host page', () => {
    const { win, deliver } = fakeWindow();
    const received: HostToFrameMessage[] = [];
    createHostBridge({ window: win, hostOrigin: HOST, onMessage: (m) => received.push(m) });
    deliver({ data: openChat });
    expect(received).toEqual([openChat]);
  });

  it('ignores a message from a foreign origin, from another window of the host origin, or of an unknown shape', () => {
    const { win, deliver, listeners } = fakeWindow();
    const received: HostToFrameMessage[] = [];
    const bridge = createHostBridge({ window: win, hostOrigin: HOST, onMessage: (m) => received.push(m) });
    deliver({ origin: 'https://evil.example.com', data: openChat });
    deliver({ origin: 'https://crm.example.com.evil.example', data: openChat });
    deliver({ origin: 'http://crm.example.com', data: openChat });
    deliver({ source: {}, data: openChat });
    deliver({ data: { ...openChat, protocol: 'other/1' } });
    deliver({ data: { ...openChat, type: 'delete_everything' } });
    deliver({ data: { ...openChat, payload: { chat_type: 'telegram' } } });
    deliver({ data: { ...openChat, extra: true } });
    deliver({ data: JSON.stringify(openChat) });
    expect(received).toEqual([]);
    bridge.close();
    expect(listeners.size).toBe(0);
  });
});

describe('the host origin', () => {
  const allowed = ['https://crm.example.com', 'https://other.example.com'];

  it("is the parent's origin when it is allowed", () => {
    expect(resolveHostOrigin({ allowed, ancestorOrigins: ['https://other.example.com'] })).toBe('https://other.example.com');
    expect(resolveHostOrigin({ allowed, referrer: 'https://crm.example.com/deals/7?x=1' })).toBe('https://crm.example.com');
  });

  it('is unknown when the parent is not allowed, or when several are and none is named', () => {
    expect(resolveHostOrigin({ allowed, ancestorOrigins: ['https://evil.example.com'] })).toBeNull();
    expect(resolveHostOrigin({ allowed, referrer: '' })).toBeNull();
    expect(resolveHostOrigin({ allowed: ['https://crm.example.com'], ancestorOrigins: ['https://evil.example.com'] })).toBeNull();
  });

  it('is the only allowed origin when the browser names none', () => {
    expect(resolveHostOrigin({ allowed: ['https://crm.example.com'] })).toBe('https://crm.example.com');
  });

  it('trusts the named parent when the allowed list is not known (the page was framed under frame-ancestors)', () => {
    expect(resolveHostOrigin({ allowed: null, ancestorOrigins: ['https://crm.example.com'] })).toBe('https://crm.example.com');
    expect(resolveHostOrigin({ allowed: null })).toBeNull();
  });
});
