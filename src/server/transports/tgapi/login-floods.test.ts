import { describe, expect, it } from 'vitest';
import type { ChannelDeps } from '../../core/channels/ports.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { telegramAccountFake } from '../../testing/telegram-account-fake.ts';
import type { CallPacer } from '../call-pacer.ts';
import { tgapiTransport } from './tgapi-transport.ts';

const self = { id: 3003, firstName: 'Acme', phone: '79990003344' };

/** The transport's login steps alone: nothing else of the gateway is reached by them. */
function transportOver(fake: ReturnType<typeof telegramAccountFake>) {
  const clock = new ManualClock();
  return tgapiTransport({
    clients: fake.clients,
    publicUrl: 'http://127.0.0.1:9',
    linkKey: Buffer.alloc(32),
    sessions: { leases: {} as never, wake: () => {}, logout: async () => {} },
    channels: () => ({ clock }) as unknown as ChannelDeps,
    revoked: async () => {},
    pacer: {} as CallPacer,
    filesAgent: {} as never,
    allowLoopbackFiles: false,
    warn: () => {},
  });
}

describe('a personal Telegram login that Telegram floods', () => {
  it('answers FLOOD_WAIT on a new login code as 429 with the seconds Telegram asked for', async () => {
    const fake = telegramAccountFake({ self, seed: 'qr-flood' });
    const tgapi = transportOver(fake);
    try {
      fake.failNext('auth.exportLoginToken', 'FLOOD_WAIT_120');
      await expect(tgapi.newQrPayload('channel-1')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, data: { retry_after: 120 } });
      // The wait over, the next code is Telegram's token.
      expect(await tgapi.newQrPayload('channel-1')).toMatch(/^tg:\/\/login\?token=/);
    } finally {
      await tgapi.close();
    }
  });
});
