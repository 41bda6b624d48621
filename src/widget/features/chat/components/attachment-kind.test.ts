import { describe, expect, it } from 'vitest';
import { mediaKind } from './Attachment.tsx';

describe('what kind of file an attachment is drawn as', () => {
  it('goes by the type before the name: a voice note in audio/webm is a sound, not a video', () => {
    expect(mediaKind({ mimetype: 'audio/webm', name: 'voice.webm' })).toBe('audio');
    expect(mediaKind({ mimetype: 'audio/ogg; codecs=opus', name: 'voice.ogg' })).toBe('audio');
    expect(mediaKind({ mimetype: 'video/webm', name: 'clip.webm' })).toBe('video');
    expect(mediaKind({ mimetype: 'application/pdf', name: 'scan.png' })).toBe('file');
  });

  it('goes by the name where the type is missing or says nothing', () => {
    expect(mediaKind({ name: 'clip.webm' })).toBe('video');
    expect(mediaKind({ mimetype: 'application/octet-stream', name: 'photo.JPG' })).toBe('image');
    expect(mediaKind({ name: 'note.opus' })).toBe('audio');
    expect(mediaKind({ name: 'report.pdf' })).toBe('file');
  });
});
