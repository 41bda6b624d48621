import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.ts';
import { TransientSendError, type OutboundMessage } from '../../core/messages/ports.ts';
import { TELEGRAM_TOKEN } from '../../testing/messaging.ts';
import { chromiumVoiceNote } from '../../testing/voice-fixture.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../../testing/telegram-emulator.ts';
import { BotApiError } from './bot-api.ts';
import { failureOf, telegramBotMessaging, telegramMessageId, type TelegramBotDeps } from './bot-driver.ts';

describe('refused sends, as the Bot API words them', () => {
  const refused = (code: number, description: string) => failureOf(new BotApiError(code, description, null));

  it('name the interface’s failure reason', () => {
    const cases: [number, string, string][] = [
      [403, 'Forbidden: bot was blocked by the user', 'chat_is_blocked'],
      [403, "Forbidden: bot can't initiate conversation with a user", 'messages_not_text_first_from_telegram_bot'],
      [403, 'Forbidden: user is deactivated', 'input_user_deactivated'],
      [403, 'Forbidden: bot was kicked from the supergroup chat', 'channel_private'],
      [400, 'Bad Request: chat not found', 'bad_contact'],
      [400, 'Bad Request: message is too long', 'text_length_is_too_much'],
      [400, 'Bad Request: message caption is too long', 'text_length_is_too_much'],
      [400, 'Bad Request: message text is empty', 'message_empty'],
      [400, 'Bad Request: failed to get HTTP URL content', 'can_not_get_content'],
      [413, 'Request Entity Too Large', 'bad_content'],
      [400, 'Bad Request: file is too big', 'bad_content'],
      [400, 'Bad Request: PHOTO_INVALID_DIMENSIONS', 'bad_content'],
      [400, 'Bad Request: something new', 'bad_required_parameter'],
      [401, 'Unauthorized', 'session_revoked'],
      // Not a revoked token: an address that answers for something else.
      [404, 'Not Found', 'unknown_error'],
    ];
    for (const [code, description, reason] of cases) expect(refused(code, description), description).toBe(reason);
  });

  it('leave to a later try what may work then: too many requests, Telegram’s own failures', () => {
    expect(refused(429, 'Too Many Requests: retry after 5')).toBeNull();
    expect(refused(502, 'Bad Gateway')).toBeNull();
  });
});

describe('Telegram message numbers', () => {
  it('are the same for a file and its caption recorded on its own', () => {
    expect(telegramMessageId('9')).toBe(9);
    expect(telegramMessageId('9:caption')).toBe(9);
  });

  it('name no message of the chat for a message of the group a supergroup was, or a button press', () => {
    expect(telegramMessageId('-555/9')).toBeNull();
    expect(telegramMessageId('-555/9:caption')).toBeNull();
    expect(telegramMessageId('cb:17')).toBeNull();
  });
});

describe('the telegram-bot driver’s files, against a local Bot API', () => {
  let telegram: TelegramEmulator;
  let files: Server;
  let url: string;
  const fetched: string[] = [];

  beforeAll(async () => {
    telegram = await startTelegramEmulator();
    telegram.addBot(TELEGRAM_TOKEN, { id: 123456789, username: 'acme_shop_bot', first_name: 'Acme Shop' });
    files = createServer((req, res) => {
      fetched.push(req.url ?? '');
      if (req.url === '/slow.pdf') {
        // A file that trickles in: a byte every 100 ms, never done (each wait is short, the whole is not).
        res.writeHead(200, { 'content-type': 'application/pdf' });
        const timer = setInterval(() => res.write('x'), 100);
        return void res.on('close', () => clearInterval(timer));
      }
      if (req.url === '/voice-1.webm') return void res.writeHead(200, { 'content-type': 'audio/webm' }).end(chromiumVoiceNote());
      // Its length untold (sent in parts): known only as its bytes come.
      res.writeHead(200, { 'content-type': req.url?.endsWith('.jpg') ? 'image/jpeg' : 'application/pdf' });
      res.write(Buffer.alloc(600, 1));
      res.end(Buffer.alloc(600, 2));
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    files.closeAllConnections();
    await new Promise((resolve) => files.close(resolve));
    await telegram.close();
  });

  const live = (extra: Partial<TelegramBotDeps> = {}): TelegramBotDeps => ({
    apiUrl: telegram.url,
    publicUrl: 'https://gw.example.com',
    cipher: { seal: (c) => JSON.stringify(c), open: (s) => JSON.parse(s) as Record<string, unknown> },
    hookSecret: (id) => `secret-${id}`,
    allowLoopbackFiles: true,
    ...extra,
  });
  const to = (content: Partial<OutboundMessage>): OutboundMessage => ({
    requestId: 'r',
    channelId: 'c1',
    transport: 'telegram',
    chatType: 'telegram',
    chatId: '4242',
    username: null,
    phone: null,
    text: null,
    attachment: null,
    template: null,
    keyboard: null,
    quotedMessengerId: null,
    sealedCredentials: JSON.stringify({ telegram_token: TELEGRAM_TOKEN }),
    ...content,
  });

  it('gives the words of a file as its caption, a form field of their own', async () => {
    const sent = await telegramBotMessaging(live()).send(to({ attachment: { url: `${url}/offer.pdf` }, text: 'Ваша оферта' }));
    expect(sent).toMatchObject({ kind: 'sent' });
    expect(telegram.calls.at(-1)).toMatchObject({ method: 'sendDocument', params: { chat_id: '4242', caption: 'Ваша оферта' } });
    expect(telegram.calls.at(-1)!.files?.document?.bytes.length).toBe(1200);
  });

  it('sends a voice note a browser recorded as WebM with sendVoice, its Opus moved into Ogg, the words its caption', async () => {
    const driver = telegramBotMessaging(live());
    const sent = await driver.send(to({ attachment: { url: `${url}/voice-1.webm`, name: 'voice-1.webm' }, text: 'послушайте' }));
    expect(sent).toMatchObject({ kind: 'sent' });
    const call = telegram.calls.at(-1)!;
    expect(call).toMatchObject({ method: 'sendVoice', params: { chat_id: '4242', caption: 'послушайте' } });
    const voice = call.files!.voice!;
    expect([voice.name, voice.type]).toEqual(['voice-1.ogg', 'audio/ogg']);
    expect(voice.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(voice.bytes.subarray(28, 36).toString('latin1')).toBe('OpusHead');
  });

  it('refuses a file on loopback where the gateway may not fetch from it, and does not ask Telegram', async () => {
    const calls = telegram.calls.length;
    const before = fetched.length;
    expect(await telegramBotMessaging(live({ allowLoopbackFiles: false })).send(to({ attachment: { url: `${url}/offer.pdf` } }))).toEqual({ kind: 'failed', reason: 'can_not_get_content' });
    const edit = telegramBotMessaging(live({ allowLoopbackFiles: false })).edit({
      channelId: 'c1',
      transport: 'telegram',
      chatId: '4242',
      messengerMessageId: '100',
      sealedCredentials: JSON.stringify({ telegram_token: TELEGRAM_TOKEN }),
      text: null,
      attachment: { url: `${url}/offer.pdf` },
      keyboard: null,
    });
    await expect(edit).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect([telegram.calls.length, fetched.length]).toEqual([calls, before]);
  });

  it('fails a file over the limit for its kind as bad content as its bytes come, a photo by the photo’s limit', async () => {
    const calls = telegram.calls.length;
    const driver = telegramBotMessaging(live({ uploadLimits: { photo: 1000, file: 5000 } }));
    expect(await driver.send(to({ attachment: { url: `${url}/wide.jpg` } }))).toEqual({ kind: 'failed', reason: 'bad_content' });
    expect(await driver.send(to({ attachment: { url: `${url}/offer.pdf` } }))).toMatchObject({ kind: 'sent' });
    expect(telegram.calls.length).toBe(calls + 1);
  });

  it('gives a send up at its deadline, however slowly its file keeps coming, for a later try; an edit is a 503', async () => {
    const driver = telegramBotMessaging(live({ sendBudgetMs: 600 }));
    const started = Date.now();
    await expect(driver.send(to({ attachment: { url: `${url}/slow.pdf` } }))).rejects.toBeInstanceOf(TransientSendError);
    expect(Date.now() - started).toBeLessThan(2000);
    const edit = driver.edit({
      channelId: 'c1',
      transport: 'telegram',
      chatId: '4242',
      messengerMessageId: '100',
      sealedCredentials: JSON.stringify({ telegram_token: TELEGRAM_TOKEN }),
      text: null,
      attachment: { url: `${url}/slow.pdf` },
      keyboard: null,
    });
    await expect(edit).rejects.toSatisfy((err) => err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE');
  });
});
