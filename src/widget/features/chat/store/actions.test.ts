import { describe, expect, it } from 'vitest';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import { messageActions } from './actions.ts';
import { sending, type ChatMessage } from './message.ts';

const T0 = Date.UTC(2030, 0, 1, 12);
const caps = (over: Partial<TransportCapabilities>): TransportCapabilities =>
  ({ edit: { window_seconds: 900, text_only: false, not_with_keyboard: false }, delete: true, ...over }) as TransportCapabilities;
const sent = (over: Partial<ChatMessage> = {}): ChatMessage => ({ ...sending('k', 'hi', new Date(T0)), message_id: 'm1', status: 'delivered', ...over });

describe('what the agent may do to a message', () => {
  it('edits within the window and deletes where the transport allows', () => {
    expect(messageActions(sent(), caps({}), T0 + 60_000)).toEqual({ edit: true, delete: true, react: false });
    expect(messageActions(sent(), caps({}), T0 + 901_000)).toEqual({ edit: false, delete: true, react: false });
    expect(messageActions(sent(), caps({ edit: null, delete: false }), T0)).toEqual({ edit: false, delete: false, react: false });
  });

  it('follows the transport’s limits on what can be edited', () => {
    const withFile = sent({ attachment: { url: 'https://x.example/a.pdf' } });
    expect(messageActions(withFile, caps({ edit: { window_seconds: 900, text_only: true, not_with_keyboard: false } }), T0).edit).toBe(false);
    const withKeyboard = sent({ keyboard: { buttons: [] } });
    expect(messageActions(withKeyboard, caps({ edit: { window_seconds: 900, text_only: false, not_with_keyboard: true } }), T0).edit).toBe(false);
  });

  it('offers nothing on inbound, unsent, failed or deleted messages, nor before the channel is known', () => {
    for (const m of [sent({ direction: 'inbound' }), sent({ message_id: null, status: 'sending' }), sent({ status: 'failed' }), sent({ deleted: true })]) {
      expect(messageActions(m, caps({}), T0)).toEqual({ edit: false, delete: false, react: false });
    }
    expect(messageActions(sent(), undefined, T0)).toEqual({ edit: false, delete: false, react: false });
  });

  it('reacts to either side’s message once the messenger has it, where the transport has reactions', () => {
    expect(messageActions(sent({ direction: 'inbound' }), caps({ reactions: true }), T0)).toEqual({ edit: false, delete: false, react: true });
    expect(messageActions(sent(), caps({ reactions: true }), T0)).toEqual({ edit: true, delete: true, react: true });
    for (const m of [sent({ message_id: null, status: 'sending' }), sent({ status: 'failed' }), sent({ deleted: true })]) {
      expect(messageActions(m, caps({ reactions: true }), T0).react).toBe(false);
    }
  });

  it('answers the same object for the same actions, so unchanged rows are not drawn again', () => {
    expect(messageActions(sent(), caps({}), T0)).toBe(messageActions(sent({ message_id: 'm2' }), caps({}), T0));
  });
});
