import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './message.ts';
import { documentKind, extensionMark, fileKind, mediaOf } from './media.ts';

const withFile = (key: string, url: string, mimetype: string, deleted = false) => ({ key, deleted, attachment: { url, name: `${key}.bin`, mimetype } }) as unknown as ChatMessage;

describe('media of a chat', () => {
  it('reads a file’s type before its name', () => {
    expect(fileKind({ mimetype: 'audio/webm', name: 'voice.webm' })).toBe('audio');
    expect(fileKind({ mimetype: 'application/pdf', name: 'scan.jpg' })).toBe('file');
    expect(fileKind({ name: 'clip.mp4' })).toBe('video');
  });

  it('steps through pictures and videos only, oldest first, deleted ones left out', () => {
    const items = mediaOf([
      withFile('a', 'https://x/a', 'image/png'),
      withFile('b', 'https://x/b', 'application/pdf'),
      withFile('c', 'https://x/c', 'video/mp4'),
      withFile('d', 'https://x/d', 'image/jpeg', true),
    ]);
    expect(items.map((i) => [i.url, i.kind])).toEqual([
      ['https://x/a', 'image'],
      ['https://x/c', 'video'],
    ]);
  });

  it('names a document’s kind for its card', () => {
    expect(documentKind({ mimetype: 'application/pdf', name: 'invoice' })).toBe('pdf');
    expect(documentKind({ name: 'report.xlsx' })).toBe('sheet');
    expect(documentKind({ mimetype: 'application/octet-stream', name: 'x' })).toBe('file');
    expect(extensionMark('invoice.final.pdf')).toBe('PDF');
    expect(extensionMark('README')).toBe('');
  });
});
