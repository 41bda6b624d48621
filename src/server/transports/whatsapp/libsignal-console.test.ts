import { Console } from 'node:console';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { quietLibsignal, setLibsignalSink } from './libsignal-console.ts';

/** What the process writes to its console (stdout and stderr) while `run` runs. */
function consoleOutput(run: () => void): string {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const original = globalThis.console;
  const writeOut = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  globalThis.console = new Console(sink, sink);
  process.stdout.write = ((chunk: string | Uint8Array) => chunks.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => chunks.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    run();
  } finally {
    globalThis.console = original;
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
  }
  return chunks.join('');
}

describe('libsignal’s console', () => {
  it('prints no private key of a Signal session the library opens or closes, only its words', () => {
    quietLibsignal();
    const heard: string[] = [];
    setLibsignalSink((level, message) => heard.push(`${level}: ${message}`));
    // Loaded the way the library loads it (Node's require), after the gateway set libsignal's console.
    const require = createRequire(import.meta.resolve('baileys'));
    const libsignal = require(require.resolve('libsignal')) as { SessionRecord: new () => { openSession(s: unknown): void; closeSession(s: unknown): void } };
    const privKey = Buffer.from('a1'.repeat(32), 'hex');
    const rootKey = Buffer.from('b2'.repeat(32), 'hex');
    const session = { indexInfo: { closed: -1, baseKey: Buffer.alloc(33, 5) }, currentRatchet: { ephemeralKeyPair: { pubKey: Buffer.alloc(33, 6), privKey }, rootKey } };
    const record = new libsignal.SessionRecord();
    const printed = consoleOutput(() => {
      record.closeSession(session);
      record.openSession(session);
    });
    for (const secret of [privKey, rootKey]) {
      for (const shown of [secret.toString('hex'), secret.toString('base64'), `<Buffer ${secret.toString('hex', 0, 4).match(/../g)!.join(' ')}`]) expect(printed).not.toContain(shown);
    }
    expect(printed).not.toMatch(/privKey|rootKey/);
    expect(heard).toEqual(['info: Closing session: [left out]', 'info: Opening session: [left out]']);
  });
});
