import { describe, expect, it } from 'vitest';
import { captionFits } from './captioned-send.ts';

describe('whether a file takes its words as a caption', () => {
  const whatsapp = { chars: 1024, sounds: false };
  const telegram = { chars: 1024, sounds: true };

  it('where the messenger shows one under that kind of file, up to its length', () => {
    expect(captionFits(whatsapp, 'image/png', 'our sofa')).toBe(true);
    expect(captionFits(whatsapp, 'application/pdf', 'ё'.repeat(1024))).toBe(true);
    expect(captionFits(whatsapp, 'application/pdf', 'ё'.repeat(1025))).toBe(false);
    expect(captionFits(telegram, 'audio/ogg', 'listen')).toBe(true);
  });

  it('not on a sound where sounds take none, nor on a file of no told type there, nor where files never do', () => {
    expect(captionFits(whatsapp, 'audio/ogg', 'listen')).toBe(false);
    expect(captionFits(whatsapp, 'video/webm', 'listen')).toBe(false);
    expect(captionFits(whatsapp, undefined, 'what is it')).toBe(false);
    expect(captionFits(telegram, undefined, 'what is it')).toBe(true);
    expect(captionFits(undefined, 'image/png', 'our sofa')).toBe(false);
  });
});
