import { describe, expect, it } from 'vitest';
import { credentialsCipher } from '../../storage/credentials-cipher.ts';
import { liveDrivers } from '../live.ts';

const base = {
  publicUrl: 'http://127.0.0.1:9',
  secretKey: 'k'.repeat(40),
  telegramApiUrl: 'http://127.0.0.1:9',
  maxApiUrl: 'http://127.0.0.1:9',
  revoked: async () => {},
};

describe('personal Telegram accounts on a live gateway', () => {
  it('are refused by `transport` when the gateway has no Telegram application', async () => {
    const live = liveDrivers({ ...base, cipher: credentialsCipher('k'.repeat(40)) });
    expect(live.connect.connects('tgapi')).toBe(false);
    await expect(live.connect.connect({ channelId: 'c', transport: 'tgapi', credentials: {} })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      data: { fields: [{ field: 'transport', message: expect.stringContaining('TELEGRAM_API_ID and TELEGRAM_API_HASH') }] },
    });
    await live.close();
  });
});
