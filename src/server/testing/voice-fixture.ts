import { readFileSync } from 'node:fs';

/** A voice note as Chromium's MediaRecorder records it (`audio/webm;codecs=opus`; see fixtures/README.md). */
export const chromiumVoiceNote = (): Buffer => readFileSync(new URL('./fixtures/voice-chromium.webm', import.meta.url));
