import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { startMaxEmulator, type MaxEmulator } from '../testing/max-emulator.ts';
import { TELEGRAM_TOKEN } from '../testing/messaging.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../testing/telegram-emulator.ts';
import { databaseKind } from '../testing/test-database.ts';

const MAX_TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_ranges';
/** An MP4's first box, then every byte value over and over: any byte out of place in a part would show. */
const clip = Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42', 'latin1'), Buffer.from(Array.from({ length: 988 }, (_, i) => i % 256))]);
const pdf = Buffer.from(`%PDF-1.7 ${'offer '.repeat(50)}`);

/** The headers a file link's answer is judged by. */
const headersOf = (res: Response) =>
  Object.fromEntries(['content-type', 'content-length', 'content-range', 'accept-ranges', 'cache-control', 'content-disposition'].map((name) => [name, res.headers.get(name)]));

describe(`byte ranges of customers’ files behind the gateway’s links (${databaseKind()})`, () => {
  let telegram: TelegramEmulator;
  let max: MaxEmulator;
  let t: TestGateway;
  /** The gateway's links to the same video, as a Telegram customer and a MAX customer sent it; and a Telegram PDF. */
  const links = { telegram: '', maxbot: '', pdf: '' };

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    telegram.addFile('clip', clip, 'video/mp4');
    telegram.addFile('offer', pdf, 'application/pdf');
    max = await startMaxEmulator();
    max.addBot(MAX_TOKEN, { user_id: 10003, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    max.addVideo('vid-anna_1', clip);
    ({ t } = await startLiveGateway({ TELEGRAM_API_URL: telegram.url, MAX_API_URL: max.url, SECRET_KEY: 'k'.repeat(40) }));
    const { token, accountId } = await t.newAccount();
    for (const credentials of [{ telegram_token: TELEGRAM_TOKEN }, { access_token: MAX_TOKEN }]) {
      const transport = 'telegram_token' in credentials ? 'telegram' : 'maxbot';
      const res = await t.call('POST', '/v2/channels', { token, body: { transport, credentials } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const stream = eventStream(t.gateway.database, accountId);
    const anna = { id: 4242, is_bot: false, first_name: 'Anna' };
    const chat = { id: 4242, type: 'private' };
    expect(await telegram.deliver(TELEGRAM_TOKEN, { update_id: 1, message: { message_id: 7, date: 1_795_000_000, chat, from: anna, video: { file_id: 'clip', file_unique_id: 'AQADclip', width: 640, height: 360, duration: 3, mime_type: 'video/mp4' } } })).toBe(200);
    expect(await telegram.deliver(TELEGRAM_TOKEN, { update_id: 2, message: { message_id: 8, date: 1_795_000_000, chat, from: anna, document: { file_id: 'offer', file_unique_id: 'AQADoffer', file_name: 'offer.pdf' } } })).toBe(200);
    const sender = { user_id: 4242, first_name: 'Anna', name: 'Anna', username: null, is_bot: false, last_activity_time: 1_795_000_000_000 };
    const body = { mid: 'mid.video1', seq: 1, text: null, attachments: [{ type: 'video', payload: { url: 'https://max.ru/watch/vid-anna_1', token: 'vid-anna_1' } }] };
    const message = { timestamp: 1_795_000_000_000, sender, recipient: { chat_id: 7_001, chat_type: 'dialog', user_id: 10003, post_id: null }, body };
    expect(await max.deliver(MAX_TOKEN, { update_type: 'message_created', timestamp: 1_795_000_000_000, message })).toBe(200);
    const urls = (await stream.since()).flatMap((e) => ((e.payload as { attachment?: { url: string } }).attachment ? [(e.payload as { attachment: { url: string } }).attachment.url] : []));
    links.telegram = urls.find((url) => url.includes('/hooks/telegram/') && url.includes('/files/clip?'))!;
    links.pdf = urls.find((url) => url.includes('/files/offer?'))!;
    links.maxbot = urls.find((url) => url.includes('/hooks/maxbot/'))!;
    expect(links).toEqual({ telegram: expect.any(String), maxbot: expect.any(String), pdf: expect.any(String) });
  });
  afterAll(async () => {
    await t?.close();
    await telegram?.close();
    await max?.close();
  });

  const ignoringRanges = (transport: 'telegram' | 'maxbot', ignore: boolean) => (transport === 'telegram' ? telegram : max).ignoreRanges(ignore);
  /** The `Range` the platform's file server was asked for last. */
  const lastAsked = (transport: 'telegram' | 'maxbot') => (transport === 'telegram' ? telegram.downloads : max.downloads).at(-1)?.range;
  const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

  for (const transport of ['telegram', 'maxbot'] as const) {
    describe(transport, () => {
      it('answers a range with 206: exactly those bytes, their range and length, never cached as the file', async () => {
        const part = await get(links[transport], { range: 'bytes=100-199' });
        expect(part.status).toBe(206);
        expect(headersOf(part)).toEqual({
          'content-type': 'video/mp4',
          'content-length': '100',
          'content-range': `bytes 100-199/${clip.length}`,
          'accept-ranges': 'bytes',
          'cache-control': 'private, no-store',
          'content-disposition': null,
        });
        expect(part.headers.get('content-security-policy')).toBe("sandbox; frame-ancestors 'none'");
        expect((await bytesOf(part)).equals(clip.subarray(100, 200))).toBe(true);
        expect(lastAsked(transport)).toBe('bytes=100-199');
      });

      it('answers an open-ended range and a suffix range with the bytes to the end', async () => {
        const rest = await get(links[transport], { range: 'bytes=100-' });
        expect([rest.status, rest.headers.get('content-range'), rest.headers.get('content-length')]).toEqual([206, `bytes 100-999/1000`, '900']);
        expect((await bytesOf(rest)).equals(clip.subarray(100))).toBe(true);
        const tail = await get(links[transport], { range: 'bytes=-100' });
        expect([tail.status, tail.headers.get('content-range'), tail.headers.get('content-length')]).toEqual([206, `bytes 900-999/1000`, '100']);
        expect((await bytesOf(tail)).equals(clip.subarray(900))).toBe(true);
      });

      it('answers a range past the end with 416 and the file’s length', async () => {
        const refused = await get(links[transport], { range: 'bytes=5000-' });
        expect([refused.status, refused.headers.get('content-range'), refused.headers.get('cache-control')]).toEqual([416, 'bytes */1000', 'no-store']);
        await refused.arrayBuffer();
      });

      it('answers without a range with the whole file, cached, saying ranges are taken', async () => {
        const whole = await get(links[transport]);
        expect(whole.status).toBe(200);
        expect(headersOf(whole)).toMatchObject({ 'content-length': '1000', 'content-range': null, 'accept-ranges': 'bytes', 'cache-control': 'private, max-age=86400' });
        expect((await bytesOf(whole)).equals(clip)).toBe(true);
        expect(lastAsked(transport)).toBeUndefined();
      });

      it('gives the whole file (200, no accept-ranges) when the platform ignores the range', async () => {
        ignoringRanges(transport, true);
        try {
          const whole = await get(links[transport], { range: 'bytes=0-99' });
          expect(whole.status).toBe(200);
          expect(headersOf(whole)).toMatchObject({ 'content-length': '1000', 'content-range': null, 'accept-ranges': null, 'cache-control': 'private, max-age=86400' });
          expect((await bytesOf(whole)).equals(clip)).toBe(true);
          expect(lastAsked(transport)).toBe('bytes=0-99');
        } finally {
          ignoringRanges(transport, false);
        }
      });

      it('gives the whole file for several ranges, a malformed one, or one under If-Range, and asks the platform for all of it', async () => {
        for (const headers of [{ range: 'bytes=0-9,20-29' }, { range: 'bytes=abc' }, { range: 'bytes=99-10' }, { range: 'bytes=0-9', 'if-range': '"v1"' }] as Record<string, string>[]) {
          const whole = await get(links[transport], headers);
          expect([whole.status, whole.headers.get('content-length'), whole.headers.get('content-range')], JSON.stringify(headers)).toEqual([200, '1000', null]);
          expect((await bytesOf(whole)).equals(clip)).toBe(true);
          expect(lastAsked(transport)).toBeUndefined();
        }
      });

      it('refuses an altered link (403) with a range as without one, before the platform is asked', async () => {
        const asked = [telegram.calls.length, telegram.downloads.length, max.calls.length, max.downloads.length];
        const signature = new URL(links[transport]).searchParams.get('signature')!;
        const altered = links[transport].replace(signature, `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
        const refused = await get(altered, { range: 'bytes=0-99' });
        expect([refused.status, refused.headers.get('content-range'), refused.headers.get('accept-ranges')]).toEqual([403, null, null]);
        await refused.arrayBuffer();
        expect([telegram.calls.length, telegram.downloads.length, max.calls.length, max.downloads.length]).toEqual(asked);
      });
    });
  }

  it('keeps a part of a file that is not a picture, sound or video a download', async () => {
    const part = await get(links.pdf, { range: 'bytes=0-7' });
    expect([part.status, part.headers.get('content-type'), part.headers.get('content-disposition')]).toEqual([206, 'application/pdf', 'attachment']);
    expect((await bytesOf(part)).toString()).toBe('%PDF-1.7');
  });
});
