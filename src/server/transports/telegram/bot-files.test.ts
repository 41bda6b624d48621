import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BotApiError, botApi } from './bot-api.ts';
import { fileKindOf, formFields } from './bot-files.ts';

describe('files a bot sends', () => {
  it('go as a photo, video or sound by their type, anything else as a document', () => {
    const kinds = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'video/mp4', 'video/quicktime', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'application/pdf', null];
    expect(kinds.map(fileKindOf)).toEqual(['photo', 'photo', 'photo', 'document', 'video', 'document', 'audio', 'audio', 'document', 'document', 'document']);
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
