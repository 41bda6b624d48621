import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { Check as checkFrameToHost } from 'virtual:bridge-check/frame-to-host';
import { Check as checkHostToFrame } from 'virtual:bridge-check/host-to-frame';
import { bridgeProtocol, FrameToHostMessage, HostToFrameMessage } from '../../contract/bridge.ts';

const tag = (type: string, payload: unknown) => ({ protocol: bridgeProtocol, type, payload });
const long = 'x'.repeat(257);

/** Messages either way, well-formed and not: the compiled checks must judge each as TypeBox's checker does. */
const hostToFrame: [unknown, boolean][] = [
  [tag('open_chat', { chat_type: 'telegram', chat_id: '42' }), true],
  [tag('open_chat', { channel_id: 'c1', chat_type: 'whatsapp', chat_id: '79001234567' }), true],
  [tag('open_chat', { chat_type: 'telegram', chat_id: '' }), false],
  [tag('open_chat', { chat_type: 'telegram', chat_id: long }), false],
  [tag('open_chat', { chat_type: 'fax', chat_id: '42' }), false],
  [tag('open_chat', { chat_type: 'telegram', chat_id: '42', extra: 1 }), false],
  [tag('open_chat', { chat_type: 'telegram' }), false],
  [tag('set_options', { lang: 'ru', theme: 'dark' }), true],
  [tag('set_options', {}), true],
  [tag('set_options', { lang: 'RU!' }), false],
  [tag('set_options', { theme: 'neon' }), false],
  [tag('delete_everything', {}), false],
  [{ ...tag('set_options', {}), protocol: 'other/1' }, false],
  [{ ...tag('set_options', {}), extra: true }, false],
  [JSON.stringify(tag('set_options', {})), false],
  [null, false],
  [[], false],
];
const frameToHost: [unknown, boolean][] = [
  [tag('ready', { kind: 'chats', user_id: 'u1' }), true],
  [tag('ready', { kind: 'chats', user_id: null }), true],
  [tag('ready', { kind: 'admin', user_id: null }), false],
  [tag('unanswered_count_changed', { total: 3 }), true],
  [tag('unanswered_count_changed', { total: -1 }), false],
  [tag('unanswered_count_changed', { total: 1.5 }), false],
  [tag('chat_opened', { channel_id: null, chat_type: 'vk', chat_id: '7' }), true],
  [tag('contact_to_create', { channel_id: 'c', chat_type: 'vk', chat_id: '7', phone: null, username: null, name: 'y'.repeat(200) }), true],
  [tag('contact_to_create', { channel_id: 'c', chat_type: 'vk', chat_id: '7', phone: null, username: null, name: 'y'.repeat(201) }), false],
  [tag('session_expired', {}), true],
  [tag('session_expired', { why: 'x' }), false],
];

describe('the bridge checks compiled at build time', () => {
  it.each(hostToFrame)('judge host → frame %j as the contract does', (message, valid) => {
    expect(Value.Check(HostToFrameMessage, message)).toBe(valid);
    expect(checkHostToFrame(message)).toBe(valid);
  });

  it.each(frameToHost)('judge frame → host %j as the contract does', (message, valid) => {
    expect(Value.Check(FrameToHostMessage, message)).toBe(valid);
    expect(checkFrameToHost(message)).toBe(valid);
  });
});
