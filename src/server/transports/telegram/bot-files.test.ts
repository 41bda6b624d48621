import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ChannelRecord, CredentialsCipher } from '../../core/channels/ports.ts';
import type { Store } from '../../core/ports.ts';
import { BotApiError, botApi } from './bot-api.ts';
import { fileKindOf, formFields, telegramFiles } from './bot-files.ts';

describe('files a bot sends', () => {
  it('go as a photo, video or sound by their type, anything else as a document', () => {
    const kinds = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'video/quicktime', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'application/pdf', null];
    expect(kinds.map(fileKindOf)).toEqual(['photo', 'photo', 'photo', 'document', 'video', 'document', 'audio', 'audio', 'voice', 'document', 'document']);
  });

  it('carry their call’s parameters as form fields: objects JSON-serialized, as Telegram reads them', () => {
    expect(
      formFields({
        chat_id: '-100555',
        caption: 'Счёт',
        reply_parameters: { message_id: 7, allow_sending_without_reply: true },
        reply_markup: { inline_keyboard: [[{ text: 'Pay', url: 'https://pay.example.com' }]] },
        message_id: 9,
        left_out: undefined,
      }),
    ).toEqual({
      chat_id: '-100555',
      caption: 'Счёт',
      reply_parameters: '{"message_id":7,"allow_sending_without_reply":true}',
      reply_markup: '{"inline_keyboard":[[{"text":"Pay","url":"https://pay.example.com"}]]}',
      message_id: '9',
    });
  });
});

describe('an upload too large for Telegram', () => {
  it('is its refusal (413), though its web server answers with a page rather than the API’s JSON', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(413, { 'content-type': 'text/html' }).end('<html><head><title>413 Request Entity Too Large</title></head></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const api = botApi(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '1:token');
      await expect(api.call('sendDocument', {})).rejects.toSatisfy((err) => err instanceof BotApiError && err.errorCode === 413);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a part of a customer’s file', () => {
  const CHANNEL = '7d1b2a3c-0000-4000-8000-000000000001';
  /** Telegram's API and file server in one: `getFile` gives the file's path, whose download answers `download`. */
  async function openWith(download: { status: number; headers: OutgoingHttpHeaders; body?: string }, range?: string) {
    const asked: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      req.resume();
      if (req.url?.endsWith('/getFile')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { file_path: 'videos/a.mp4' } }));
      asked.push(req.headers);
      res.writeHead(download.status, download.headers).end(download.body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const store = { channels: { getById: async (id: string) => ({ id, credentials: 'sealed' }) as unknown as ChannelRecord } } as unknown as Store;
    const cipher = { open: () => ({ telegram_token: '1:token' }) } as unknown as CredentialsCipher;
    const files = telegramFiles({ apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 1), store, cipher });
    const signature = new URL(files.attachment(CHANNEL, { file: { file_id: 'vid' }, name: null, mimetype: null }).url).searchParams.get('signature')!;
    try {
      const opened = await files.open(CHANNEL, 'vid', signature, range).catch((err: unknown) => err as Error);
      if (opened && typeof opened === 'object' && 'stream' in opened) await opened.stream.toArray();
      return { opened, ranges: asked.map((h) => h.range) };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('is asked of Telegram as the one range the client asked for, and handed on with its range and length', async () => {
    const { opened, ranges } = await openWith({ status: 206, headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 10-19/100', 'content-length': 10 }, body: '0123456789' }, 'Bytes=10-19');
    expect(ranges).toEqual(['bytes=10-19']);
    expect(opened).toMatchObject({ contentType: 'video/mp4', size: 10, contentRange: 'bytes 10-19/100', acceptsRanges: true });
  });

  it('is not asked for when the client asked for several, and the whole file then comes as it did', async () => {
    const { opened, ranges } = await openWith({ status: 200, headers: { 'content-type': 'video/mp4', 'content-length': 4 }, body: 'MP4!' }, 'bytes=0-1,2-3');
    expect(ranges).toEqual([undefined]);
    expect(opened).toMatchObject({ size: 4, acceptsRanges: false });
    expect(opened).not.toHaveProperty('contentRange');
  });

  it('refused by Telegram is the refusal, with the file’s length when told', async () => {
    expect((await openWith({ status: 416, headers: { 'content-range': 'bytes */100' } }, 'bytes=500-')).opened).toEqual({ rangeNotSatisfiable: true, size: 100 });
    expect((await openWith({ status: 416, headers: {} }, 'bytes=500-')).opened).toEqual({ rangeNotSatisfiable: true, size: null });
  });

  it('that Telegram gives wrong (unasked for, or its length not its range’s) is Telegram failing, never a wrong body', async () => {
    const unavailable = { name: 'AppError', code: 'SERVICE_UNAVAILABLE' };
    expect((await openWith({ status: 206, headers: { 'content-range': 'bytes 0-9/100', 'content-length': 10 }, body: '0123456789' })).opened).toMatchObject(unavailable);
    expect((await openWith({ status: 206, headers: { 'content-range': 'bytes 0-9/100', 'content-length': 4 }, body: '0123' }, 'bytes=0-9')).opened).toMatchObject(unavailable);
    expect((await openWith({ status: 416, headers: {} })).opened).toMatchObject(unavailable);
  });
});

describe('a customer’s file opened again and again (a player seeking)', () => {
  it('is looked up at Telegram once while its path holds, and again once the path no longer serves it', async () => {
    const CHANNEL = '7d1b2a3c-0000-4000-8000-000000000001';
    let generation = 1;
    let lookups = 0;
    const server = createServer((req, res) => {
      req.resume();
      if (req.url?.endsWith('/getFile')) {
        lookups++;
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result: { file_path: `g${generation}/a.mp4` } }));
      }
      // Telegram's paths lapse: one from an earlier generation is gone.
      if (!req.url?.endsWith(`/g${generation}/a.mp4`)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 4 }).end('MP4!');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const store = { channels: { getById: async (id: string) => ({ id, credentials: 'sealed' }) as unknown as ChannelRecord } } as unknown as Store;
      const cipher = { open: () => ({ telegram_token: '1:token' }) } as unknown as CredentialsCipher;
      const files = telegramFiles({ apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 1), store, cipher });
      const signature = new URL(files.attachment(CHANNEL, { file: { file_id: 'vid' }, name: null, mimetype: null }).url).searchParams.get('signature')!;
      const openAll = async () => {
        const opened = await files.open(CHANNEL, 'vid', signature);
        return opened && typeof opened === 'object' && 'stream' in opened ? Buffer.concat(await opened.stream.toArray()).toString() : opened;
      };
      for (let i = 0; i < 3; i++) expect(await openAll()).toBe('MP4!');
      expect(lookups).toBe(1);
      generation = 2;
      expect(await openAll()).toBe('MP4!');
      expect(lookups).toBe(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
