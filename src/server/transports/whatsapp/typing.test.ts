import { describe, expect, it } from 'vitest';
import type { WaSocket } from './wa-socket.ts';
import { showTyping } from './typing.ts';

describe('typing before a paced send', () => {
  it('shows composing for the time asked, then paused; nothing for no time, and a refused presence holds nothing up', async () => {
    const calls: string[] = [];
    const socket = {
      sendPresenceUpdate: async (type: string, jid: string) => {
        calls.push(`${type} ${jid}`);
        if (type === 'paused') throw new Error('presence refused');
      },
    } as unknown as WaSocket;
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
      calls.push(`sleep ${ms}`);
    };
    await showTyping(socket, '79001112233@s.whatsapp.net', 2_500, sleep);
    expect(calls).toEqual(['composing 79001112233@s.whatsapp.net', 'sleep 2500', 'paused 79001112233@s.whatsapp.net']);
    await showTyping(socket, '79001112233@s.whatsapp.net', 0, sleep);
    expect(slept).toEqual([2_500]);
  });
});
