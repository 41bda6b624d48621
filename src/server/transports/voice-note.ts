import { Readable } from 'node:stream';
import { readWhole, type FetchedSource } from './file-source.ts';

/**
 * Voice notes recorded as WebM. Chromium's MediaRecorder (the chat frame's microphone, and most browsers an API user
 * records in) writes Opus in WebM; WhatsApp and Telegram take a voice message only as Opus in Ogg, and show anything
 * else as a sound file. The Opus packets are the same in both: they are copied from one container into the other
 * (mediabunny's Conversion, which copies a track it need not change), never decoded, so no WebCodecs are needed and
 * the voice is not re-encoded. A WebM whose only track is not Opus, or that cannot be read, goes as it came.
 */

/** The types a WebM sound is told by: the frame's `audio/webm`, and `video/webm` for a recording without a picture. */
export const isWebmSound = (type: string | null | undefined): boolean => type === 'audio/webm' || type === 'video/webm';

/** The type a remuxed voice note goes as. */
export const OGG_OPUS = 'audio/ogg';

/** The Opus of a WebM with one sound track and no picture, moved into Ogg; null for any other WebM or bytes. */
export async function oggOpusOf(webm: Uint8Array): Promise<Uint8Array | null> {
  // Loaded on the first voice note: most processes never send one.
  const { ALL_FORMATS, BufferSource, BufferTarget, Conversion, Input, OggOutputFormat, Output } = await import('mediabunny');
  const input = new Input({ source: new BufferSource(webm), formats: ALL_FORMATS });
  try {
    const tracks = await input.getTracks();
    if (tracks.length !== 1) return null;
    const [track] = tracks;
    if (!track?.isAudioTrack() || track.codec !== 'opus') return null;
    const target = new BufferTarget();
    const output = new Output({ format: new OggOutputFormat(), target });
    const conversion = await Conversion.init({ input, output, showWarnings: false });
    if (!conversion.isValid) return null;
    await conversion.execute();
    return target.buffer ? new Uint8Array(target.buffer) : null;
  } catch {
    // Not WebM after all, or cut short: the file goes as it is.
    return null;
  } finally {
    input.dispose();
  }
}

/** A file's name with the ending its new type has: `voice-….webm` goes as `voice-….ogg`. */
export const oggNameOf = (name: string): string => `${name.replace(/\.(webm|weba)$/i, '')}.ogg`;

/**
 * A fetched WebM sound as a voice note: read whole (up to `limitBytes`, which a voice note is far under), remuxed into
 * Ogg, and given as a source of its own. Any other file, or a WebM that is not Opus alone, is handed back as it came
 * (a WebM read into memory is handed back from there).
 */
export async function voiceNoteSource(source: FetchedSource, type: string | null, limitBytes: number, platform: string): Promise<{ source: FetchedSource; voice: boolean }> {
  if (!isWebmSound(type)) return { source, voice: false };
  const bytes = await readWhole(source, limitBytes, platform);
  const ogg = await oggOpusOf(bytes);
  if (!ogg) return { source: { body: Readable.from([bytes]), contentType: source.contentType, length: bytes.length }, voice: false };
  return { source: { body: Readable.from([Buffer.from(ogg)]), contentType: OGG_OPUS, length: ogg.length }, voice: true };
}
