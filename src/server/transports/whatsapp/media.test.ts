import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceAgent } from '../file-source.ts';
import { chromiumVoiceNote } from '../../testing/voice-fixture.ts';
import { outboundContent, ownFileSends } from './media.ts';

const files: Record<string, { type: string; bytes: Buffer }> = {
  '/photo.png': { type: 'image/png', bytes: Buffer.from('\x89PNG a photo', 'latin1') },
  '/clip.mp4': { type: 'video/mp4', bytes: Buffer.from('....ftypisom a clip') },
  '/note.ogg': { type: 'audio/ogg', bytes: Buffer.from('OggS a voice note') },
  '/recorded.webm': { type: 'audio/webm', bytes: chromiumVoiceNote() },
  '/song.mp3': { type: 'audio/mpeg', bytes: Buffer.from('ID3 a song') },
  '/invoice.pdf': { type: 'application/pdf', bytes: Buffer.from('%PDF-1.7 an invoice') },
};
const quiet = { level: 'silent', child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The content the driver hands the library for each kind of file, turned into WhatsApp's message by the library
 * itself (its uploads stood in for): each kind is the message WhatsApp shows it as.
 */
describe('files sent as WhatsApp’s messages, through the real library', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const file = files[req.url ?? '']!;
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('makes a photo, a video, a voice note, an audio and a named document', async () => {
    const { generateWAMessageContent } = await import('baileys');
    const deps = { filesAgent: sourceAgent(true), allowLoopbackFiles: true, ownSends: ownFileSends() };
    const upload = async () => ({ mediaUrl: 'https://mmg.whatsapp.net/v/t62.7118-24/stand-in.enc', directPath: '/v/t62.7118-24/stand-in.enc' });
    const made = [];
    for (const path of Object.keys(files)) {
      const content = await outboundContent(deps, { url: `${base}${path}` }, path === '/photo.png' ? 'our sofa' : null);
      const message = await generateWAMessageContent(content, { upload, logger: quiet as never });
      const [kind, fields] = Object.entries(message)[0] as [string, { mimetype?: string; caption?: string; ptt?: boolean; fileName?: string }];
      made.push([kind, fields.mimetype, fields.caption ?? null, fields.ptt ?? null, fields.fileName ?? null]);
    }
    expect(made).toEqual([
      ['imageMessage', 'image/png', 'our sofa', null, null],
      ['videoMessage', 'video/mp4', null, null, null],
      ['audioMessage', 'audio/ogg; codecs=opus', null, true, null],
      ['audioMessage', 'audio/ogg; codecs=opus', null, true, null],
      ['audioMessage', 'audio/mpeg', null, null, null],
      ['documentMessage', 'application/pdf', null, null, 'invoice.pdf'],
    ]);
  });

  it('sends a browser’s WebM recording as a voice note, its Opus moved into Ogg', async () => {
    const deps = { filesAgent: sourceAgent(true), allowLoopbackFiles: true, ownSends: ownFileSends() };
    const content = (await outboundContent(deps, { url: `${base}/recorded.webm`, mimetype: 'audio/webm', name: 'voice-1.webm' }, null)) as { audio: Buffer; mimetype: string; ptt: boolean };
    expect([content.mimetype, content.ptt]).toEqual(['audio/ogg; codecs=opus', true]);
    expect(content.audio.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(content.audio.includes('OpusHead')).toBe(true);
  });
});
