import { Readable } from 'node:stream';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input, type InputAudioTrack } from 'mediabunny';
import { describe, expect, it } from 'vitest';
import { chromiumVoiceNote } from '../testing/voice-fixture.ts';
import { FileTooLarge } from './file-source.ts';
import { oggNameOf, oggOpusOf, voiceNoteSource } from './voice-note.ts';


/** Every packet of a file's sound track, and the track's Opus header (`OpusHead`). */
async function opusOf(bytes: Uint8Array) {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  const track = (await input.getPrimaryAudioTrack()) as InputAudioTrack;
  const packets: string[] = [];
  const sink = new EncodedPacketSink(track);
  for await (const packet of sink.packets()) packets.push(Buffer.from(packet.data).toString('base64'));
  return { format: (await input.getFormat()).name, codec: track.codec, channels: track.numberOfChannels, packets };
}

describe('a WebM voice note moved into Ogg', () => {
  it('copies Chromium’s Opus packets into an Ogg stream unchanged', async () => {
    const webm = chromiumVoiceNote();
    const ogg = await oggOpusOf(webm);
    expect(ogg).not.toBeNull();
    expect(Buffer.from(ogg!.subarray(0, 4)).toString('latin1')).toBe('OggS');
    expect(Buffer.from(ogg!).includes('OpusHead')).toBe(true);
    const before = await opusOf(webm);
    const after = await opusOf(ogg!);
    expect(after.format).toBe('Ogg');
    expect({ ...after, format: null }).toEqual({ ...before, format: null });
    expect(before.packets.length).toBeGreaterThanOrEqual(10);
  });

  it('leaves what is not Opus in WebM as it is', async () => {
    expect(await oggOpusOf(Buffer.from('%PDF-1.7 not a recording'))).toBeNull();
    expect(await oggOpusOf(chromiumVoiceNote().subarray(0, 40))).toBeNull();
  });

  it('gives a fetched WebM back as an Ogg source, and other files untouched', async () => {
    const webm = chromiumVoiceNote();
    const fetched = { body: Readable.from([webm.subarray(0, 1000), webm.subarray(1000)]), contentType: 'audio/webm', length: webm.length };
    const { source, voice } = await voiceNoteSource(fetched, 'audio/webm', 1_000_000, 'Telegram');
    expect(voice).toBe(true);
    expect(source.contentType).toBe('audio/ogg');
    const chunks: Buffer[] = [];
    for await (const chunk of source.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).length).toBe(source.length);
    const mp3 = { body: Readable.from([Buffer.from('ID3')]), contentType: 'audio/mpeg', length: 3 };
    expect((await voiceNoteSource(mp3, 'audio/mpeg', 1_000_000, 'Telegram')).source).toBe(mp3);
    const big = { body: Readable.from([webm]), contentType: 'audio/webm', length: null };
    await expect(voiceNoteSource(big, 'audio/webm', 100, 'Telegram')).rejects.toBeInstanceOf(FileTooLarge);
    expect(oggNameOf('voice-2026-11-29.webm')).toBe('voice-2026-11-29.ogg');
  });
});
