import { describe, expect, it } from 'vitest';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { forwardedContent, forwardTargets } from './forward.ts';
import { sending, type ChatMessage } from './message.ts';

const received = (over: Partial<ChatMessage> = {}): ChatMessage => ({ ...sending('k', 'hello', new Date(0)), direction: 'inbound', message_id: 'm1', status: 'delivered', ...over });
const channel = (channel_id: string, over: Partial<BffChannel> = {}, textLimit = 4096): BffChannel =>
  ({ channel_id, status: 'active', reason: null, capabilities: { chat_types: ['telegram'], text_limit: textLimit }, ...over }) as unknown as BffChannel;
const chat = (chat_ref: string, channel_id: string, chat_type = 'telegram'): BffChat => ({ chat_ref, channel_id, chat_type }) as unknown as BffChat;

describe('what of a message can be forwarded', () => {
  it('carries the words and a file the gateway already holds', () => {
    expect(forwardedContent(received())).toEqual({ text: 'hello', attachment: null });
    const file = { url: 'https://files.example/a.pdf', name: 'a.pdf' };
    expect(forwardedContent(received({ text: null, attachment: file }))).toEqual({ text: null, attachment: file });
    expect(forwardedContent(received({ text: null, template: { id: 't1', text: 'Hi there' } }))?.text).toBe('Hi there');
  });

  it('offers nothing for a message not sent yet, deleted, empty, or a file without its URL', () => {
    expect(forwardedContent(received({ message_id: null }))).toBeNull();
    expect(forwardedContent(received({ deleted: true }))).toBeNull();
    expect(forwardedContent(received({ text: '  ' }))).toBeNull();
    expect(forwardedContent(received({ text: null, attachment: { url: '', name: 'a.pdf' } }))).toBeNull();
  });
});

describe('which chats a forward may go to', () => {
  const channels = [channel('tg'), channel('off', { status: 'disabled' } as Partial<BffChannel>), channel('short', {}, 5), channel('wa', { capabilities: { chat_types: ['whatsapp'], text_limit: 4096 } } as Partial<BffChannel>)];
  const text = { text: 'hello there', attachment: null };

  it('leaves out the chat it comes from and chats of inactive or unknown channels', () => {
    const chats = [chat('A', 'tg'), chat('B', 'tg'), chat('C', 'off'), chat('D', 'gone')];
    expect(forwardTargets(chats, channels, text, 'A').map((c) => c.chat_ref)).toEqual(['B']);
  });

  it('leaves out channels whose messenger cannot take words that long, or that kind of chat', () => {
    const chats = [chat('B', 'short'), chat('C', 'wa', 'telegram'), chat('D', 'wa', 'whatsapp')];
    expect(forwardTargets(chats, channels, text, 'A').map((c) => c.chat_ref)).toEqual(['D']);
    expect(forwardTargets(chats, channels, { text: null, attachment: { url: 'https://files.example/a.pdf' } }, 'A').map((c) => c.chat_ref)).toEqual(['B', 'D']);
  });
});
