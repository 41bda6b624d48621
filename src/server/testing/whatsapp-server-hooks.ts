import { registerHooks } from 'node:module';
import { signalSeamReplacements } from './whatsapp-customer-device.ts';

/**
 * The fake WhatsApp server (crabline) keeps each connection's Noise transport to itself: nothing outside can write a
 * node into a live connection or hold one back. This installs, before the server's module is first loaded in the
 * process, a load hook that adds one seam to that module (never to the file on disk): every node the server writes to
 * a client passes through `globalThis[SERVER_HOOK]` (when set), which can send it, hold it, delay it or send others
 * in its place, and each new connection is announced to it. Without a hook installed the module behaves as shipped.
 */
export const SERVER_HOOK = Symbol.for('messaging-gateway.tests.whatsapp-server-hook');

/** One client connection of the fake server, as the hook sees it. */
export interface ServerConnection {
  /** The ws socket (its `readyState`, `close()`, `terminate()`, `once('close')`). */
  socket: { readyState: number; close(code?: number, reason?: string): void; terminate(): void; once(event: 'close', listener: (code: number, reason: Buffer) => void): void };
  /** Encrypts and writes a node now, past the hook. */
  writeNode(node: WaNode): Promise<void>;
}

export interface WaNode {
  tag: string;
  attrs: Record<string, string>;
  content?: WaNode[] | Uint8Array | string;
}

export interface ServerHook {
  connected(connection: ServerConnection): void;
  /** Called for each node the server writes; the hook writes it (or not) through `connection.writeNode`. */
  send(connection: ServerConnection, node: WaNode): Promise<void>;
  /** Called for each node a client wrote, once the server recorded it (the server then handles it as shipped). */
  received?(connection: ServerConnection, node: WaNode): void;
}

const MODULE_SUFFIX = '/@openclaw/crabline/dist/src/servers/whatsapp-baileys-websocket.js';
const DECODER_SUFFIX = '/@openclaw/crabline/dist/src/servers/whatsapp-wire/binary-node.js';
const DICTIONARY = Symbol.for('messaging-gateway.tests.whatsapp-dictionary');
const CONTACT_LOOKUP = Symbol.for('messaging-gateway.tests.whatsapp-contact-lookup');
/** Set by the patched module when it is evaluated: the seam is there. */
const PATCHED = Symbol.for('messaging-gateway.tests.whatsapp-server-patched');

const serverReplacements: [string, string][] = [
  [
    '    async #sendNode(node) {\n        await sendWhatsAppWebSocketPayload(this.socket, this.#noise.encodeNode(node));\n    }',
    [
      '    async #sendNode(node) {',
      `        const hook = globalThis[Symbol.for("messaging-gateway.tests.whatsapp-server-hook")];`,
      '        if (hook) return await hook.send(this, node);',
      '        await this.writeNode(node);',
      '    }',
      '    async writeNode(node) {',
      '        await sendWhatsAppWebSocketPayload(this.socket, this.#noise.encodeNode(node));',
      '    }',
    ].join('\n'),
  ],
  // The fake closes a connection (1009) once 32 of its client's frames wait to be read, each read awaiting a write
  // to its recorder file. WhatsApp reads its stream as it comes: a client answering a queue of offline messages (an
  // ack and a receipt each) writes far more than 32 frames at once. The fake's bound on the bytes waiting stays.
  ['const MAX_PENDING_WEBSOCKET_MESSAGES = 32;', 'const MAX_PENDING_WEBSOCKET_MESSAGES = 10_000;'],
  // The customer's phone encrypts what it writes with the fake's own Signal session (whatsapp-customer-device.ts).
  ...signalSeamReplacements,
  // What a client writes is shown to the hook by connection (a presence subscription is the connection's).
  [
    '        await awaitWithAbort(this.#recordNode(node), this.#acceptanceAbort.signal);\n',
    `        await awaitWithAbort(this.#recordNode(node), this.#acceptanceAbort.signal);\n        globalThis[Symbol.for("messaging-gateway.tests.whatsapp-server-hook")]?.received?.(this, node);\n`,
  ],
  ['        sessions.add(session);\n', `        sessions.add(session);\n        globalThis[Symbol.for("messaging-gateway.tests.whatsapp-server-hook")]?.connected(session);\n`],
  // The fake answers a usync query for devices only (each user named by its jid); the library's "is this number on
  // WhatsApp" (a contact lookup, each user named by a phone number) made it throw. WhatsApp answers it: see contactLookup.
  [
    '                    content: requestedUsers.map((user) => this.#createUSyncUser(requireAttr(user, "jid"))),',
    '                    content: requestedUsers.map((user) => globalThis[Symbol.for("messaging-gateway.tests.whatsapp-contact-lookup")]?.(user) ?? this.#createUSyncUser(requireAttr(user, "jid"))),',
  ],
];
/**
 * The fake's decoder knows only the tokens of the nodes it handles and closes the connection (1002, "Unsupported
 * WhatsApp single-byte token") on any other, such as `interactive`, the context of the library's contact lookup.
 * WhatsApp reads its whole dictionary: the fake falls back to it (the library's copy, see loadWhatsAppDictionary).
 */
const decoderReplacements: [string, string][] = [
  ['        const token = SINGLE_BYTE_TOKENS[tag];', '        const token = SINGLE_BYTE_TOKENS[tag] ?? globalThis[Symbol.for("messaging-gateway.tests.whatsapp-dictionary")]?.single[tag];'],
  [
    '        const value = DOUBLE_BYTE_TOKENS[dictionary]?.[index];',
    '        const value = DOUBLE_BYTE_TOKENS[dictionary]?.[index] ?? globalThis[Symbol.for("messaging-gateway.tests.whatsapp-dictionary")]?.double[dictionary]?.[index];',
  ],
];

let installed = false;

/** Installs the load hook; must run before the server's module is imported (it throws later if it was not). */
export function installServerSeam(): void {
  if (installed) return;
  installed = true;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      const replacements = url.endsWith(MODULE_SUFFIX) ? serverReplacements : url.endsWith(DECODER_SUFFIX) ? decoderReplacements : null;
      if (!replacements) return loaded;
      let source = String(loaded.source);
      for (const [from, to] of replacements) {
        if (!source.includes(from)) throw new Error(`the fake WhatsApp server's module changed: cannot add the test seam (${from.split('\n')[0]!.trim()})`);
        source = source.replace(from, to);
      }
      if (replacements === serverReplacements) source += `\nglobalThis[Symbol.for("messaging-gateway.tests.whatsapp-server-patched")] = true;\n`;
      return { ...loaded, source };
    },
  });
}

/** WhatsApp's token dictionary (the library's copy), which the fake's decoder falls back to. */
export async function loadWhatsAppDictionary(): Promise<void> {
  const { SINGLE_BYTE_TOKENS, DOUBLE_BYTE_TOKENS } = await import('baileys/lib/WABinary/constants.js');
  (globalThis as Record<symbol, unknown>)[DICTIONARY] = { single: SINGLE_BYTE_TOKENS, double: DOUBLE_BYTE_TOKENS };
  (globalThis as Record<symbol, unknown>)[CONTACT_LOOKUP] = contactLookup;
}

/**
 * WhatsApp's answer to a contact lookup's user (`<user><contact>+15551234567</contact></user>`): the account of that
 * number (`<user jid="15551234567@s.whatsapp.net"><contact type="in"/></user>`). Every number has one on the fake.
 * Undefined for a user named otherwise (by jid: a device lookup, which the fake answers itself).
 */
export function contactLookup(user: WaNode): WaNode | undefined {
  const contact = Array.isArray(user.content) ? user.content.find((c) => c.tag === 'contact') : undefined;
  if (!contact || user.attrs.jid || contact.content === undefined || Array.isArray(contact.content)) return undefined;
  const phone = typeof contact.content === 'string' ? contact.content : Buffer.from(contact.content).toString('utf8');
  const digits = phone.replace(/\D/g, '');
  if (!digits) return undefined;
  return { tag: 'user', attrs: { jid: `${digits}@s.whatsapp.net` }, content: [{ tag: 'contact', attrs: { type: 'in' } }] };
}

/** Throws when the server's module was loaded without the seam (imported before `installServerSeam`). */
export function assertSeam(): void {
  if (!(globalThis as Record<symbol, unknown>)[PATCHED]) {
    throw new Error('the fake WhatsApp server was loaded before its test seam was installed: import it through whatsapp-fault-server.ts only');
  }
}

export function setServerHook(hook: ServerHook | null): void {
  const global = globalThis as Record<symbol, unknown>;
  if (hook && global[SERVER_HOOK]) throw new Error('one fault-injecting WhatsApp server per process');
  if (hook) global[SERVER_HOOK] = hook;
  else delete global[SERVER_HOOK];
}
