import { describe, expect, it, vi } from 'vitest';
import { gatedBridge, postsToHost } from './bridge-events.ts';
import type { HostBridge } from './host-bridge.ts';

describe('postsToHost', () => {
  it('posts every message while the session names no use_events', () => {
    for (const type of ['chat_opened', 'unanswered_count_changed', 'contact_to_create', 'ready'] as const) {
      expect(postsToHost(undefined, type)).toBe(true);
      expect(postsToHost({}, type)).toBe(true);
    }
  });

  it('keeps chat events back when messages is off, and only those', () => {
    const events = { messages: false, deals: true };
    expect(postsToHost(events, 'chat_opened')).toBe(false);
    expect(postsToHost(events, 'unanswered_count_changed')).toBe(false);
    expect(postsToHost(events, 'contact_to_create')).toBe(true);
  });

  it('keeps CRM creations back when deals is off, and only those', () => {
    const events = { messages: true, deals: false };
    expect(postsToHost(events, 'contact_to_create')).toBe(false);
    expect(postsToHost(events, 'chat_opened')).toBe(true);
  });

  it('always says the frame is ready, its session ended, or a channel connected', () => {
    const none = { messages: false, deals: false };
    expect(postsToHost(none, 'ready')).toBe(true);
    expect(postsToHost(none, 'session_expired')).toBe(true);
    expect(postsToHost(none, 'channel_connected')).toBe(true);
  });
});

describe('gatedBridge', () => {
  it('hands on what the session allows and drops the rest', () => {
    const inner: HostBridge = { post: vi.fn(), close: vi.fn() };
    const bridge = gatedBridge(inner, { messages: false, deals: true });
    bridge.post({ type: 'chat_opened', payload: { channel_id: null, chat_type: 'whatsapp', chat_id: '79001234567' } });
    bridge.post({ type: 'unanswered_count_changed', payload: { total: 2 } });
    bridge.post({ type: 'session_expired', payload: {} });
    expect(inner.post).toHaveBeenCalledTimes(1);
    expect(inner.post).toHaveBeenCalledWith({ type: 'session_expired', payload: {} });
    bridge.close();
    expect(inner.close).toHaveBeenCalled();
  });
});
