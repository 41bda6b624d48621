import { registerHooks } from 'node:module';

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
}

const MODULE_SUFFIX = '/@openclaw/crabline/dist/src/servers/whatsapp-baileys-websocket.js';
/** Set by the patched module when it is evaluated: the seam is there. */
const PATCHED = Symbol.for('messaging-gateway.tests.whatsapp-server-patched');

const replacements: [string, string][] = [
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
  // ack and a receipt each) writes far more than 32 frames at once. The fake's bound on the bytes waiting stays. A
  // server started with `readsAsWhatsApp` sets the bound (setMaxPendingFrames); the others keep the fake's.
  [
    '    const maxPendingMessages = options.maxPendingMessages ?? MAX_PENDING_WEBSOCKET_MESSAGES;',
    '    const maxPendingMessages = options.maxPendingMessages ?? globalThis[Symbol.for("messaging-gateway.tests.whatsapp-max-pending")] ?? MAX_PENDING_WEBSOCKET_MESSAGES;',
  ],
  ['        sessions.add(session);\n', `        sessions.add(session);\n        globalThis[Symbol.for("messaging-gateway.tests.whatsapp-server-hook")]?.connected(session);\n`],
];

let installed = false;

/** Installs the load hook; must run before the server's module is imported (it throws later if it was not). */
export function installServerSeam(): void {
  if (installed) return;
  installed = true;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!url.endsWith(MODULE_SUFFIX)) return loaded;
      let source = String(loaded.source);
      for (const [from, to] of replacements) {
        if (!source.includes(from)) throw new Error(`the fake WhatsApp server's module changed: cannot add the test seam (${from.split('\n')[0]!.trim()})`);
        source = source.replace(from, to);
      }
      source += `\nglobalThis[Symbol.for("messaging-gateway.tests.whatsapp-server-patched")] = true;\n`;
      return { ...loaded, source };
    },
  });
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

/** The bound on a client's frames waiting to be read, for connections made from now on (null: the fake's own, 32). */
export function setMaxPendingFrames(bound: number | null): void {
  const key = Symbol.for('messaging-gateway.tests.whatsapp-max-pending');
  if (bound === null) delete (globalThis as Record<symbol, unknown>)[key];
  else (globalThis as Record<symbol, unknown>)[key] = bound;
}
