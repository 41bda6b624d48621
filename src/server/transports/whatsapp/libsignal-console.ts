import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { sep } from 'node:path';

/**
 * libsignal (the Signal protocol under WhatsApp Web's library) prints each session it opens or closes to the
 * console (`console.info("Closing session:", session)`), private ratchet keys and root key included. Its modules
 * are given a console of their own as they load: what they print goes to `libsignalSink` with every object left
 * out (the words stay, e.g. "Closing session:"), never to stdout. The package itself is not changed; its modules are
 * compiled with one declaration put before their code, on their first line, so their line numbers stay.
 */

/** Where libsignal's messages go, objects left out: nowhere unless the gateway sets it (its debug log). */
export let libsignalSink: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void = () => {};
export const setLibsignalSink = (sink: typeof libsignalSink): void => {
  libsignalSink = sink;
};

const CONSOLE_KEY = Symbol.for('gateway.libsignal.console');

/** The words of a call, each object (a session, a key, an error's fields) left out. */
const wordsOf = (args: unknown[]) => args.map((a) => (typeof a === 'string' || typeof a === 'number' || typeof a === 'boolean' ? String(a) : '[left out]')).join(' ');

const quietConsole = {
  log: (...args: unknown[]) => libsignalSink('info', wordsOf(args)),
  info: (...args: unknown[]) => libsignalSink('info', wordsOf(args)),
  debug: (...args: unknown[]) => libsignalSink('debug', wordsOf(args)),
  warn: (...args: unknown[]) => libsignalSink('warn', wordsOf(args)),
  error: (...args: unknown[]) => libsignalSink('error', wordsOf(args)),
  trace: (...args: unknown[]) => libsignalSink('debug', wordsOf(args)),
  assert: () => {},
};

/** The declaration each of libsignal's modules is compiled with: `console` is the quiet one there. */
const DECLARATION = `var console = globalThis[Symbol.for('gateway.libsignal.console')];`;

/** Whether a file is one of libsignal's own modules (wherever the package is installed). */
const isLibsignal = (filename: string) => filename.includes(`${sep}node_modules${sep}libsignal${sep}`);

type Loader = (module: { _compile(source: string, filename: string): unknown }, filename: string) => void;
let installed = false;

/** Gives libsignal's modules their quiet console (once; before the library first loads them). */
export function quietLibsignal(): void {
  if (installed) return;
  installed = true;
  (globalThis as Record<symbol, unknown>)[CONSOLE_KEY] = quietConsole;
  const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const load = extensions['.js']!;
  extensions['.js'] = (module, filename) => {
    if (!isLibsignal(filename)) return load(module, filename);
    const source = readFileSync(filename, 'utf8');
    // After a leading 'use strict' (which must stay the first statement), on the same line.
    const strict = /^(\s*(['"])use strict\2;?)/.exec(source);
    const compiled = strict ? `${strict[1]} ${DECLARATION}${source.slice(strict[1]!.length)}` : `${DECLARATION}${source}`;
    module._compile(compiled, filename);
  };
}
