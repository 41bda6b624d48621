import type * as BaileysModule from 'baileys';
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from 'baileys';
import type { SessionState } from '../../core/sessions/ports.ts';
import type { WaAck } from './acks.ts';
import { quietLibsignal } from './libsignal-console.ts';
import { orderedStateWrites } from './state-writes.ts';
import type { WaLibrary, WaSocket } from './wa-socket.ts';

type Baileys = typeof BaileysModule;

/** The optional package, loaded on first use; null when the deployment left it out. */
let loaded: Promise<Baileys | null> | null = null;
export const loadBaileys = (): Promise<Baileys | null> =>
  (loaded ??= (async () => {
    // Before the library loads its Signal code, whose sessions print their private keys to the console.
    quietLibsignal();
    return import('baileys').catch(() => null);
  })());

/** Whether the optional package is installed (resolvable), without loading it. */
export function baileysInstalled(): boolean {
  try {
    import.meta.resolve('baileys');
    return true;
  } catch {
    return false;
  }
}

const CREDS = 'creds';
const keyOf = (type: string, id: string) => `${type}:${id}`;

/**
 * The library's authentication state kept in the session's sealed state: its credentials under one key, each signal
 * key under its own (`<type>:<id>`), Buffers written through the library's own JSON codec. Writes go one after another
 * and are awaited (orderedStateWrites); one that keeps failing is reported through `onError` and fails the library's
 * call.
 */
export async function sessionAuth(baileys: Pick<Baileys, 'BufferJSON' | 'initAuthCreds' | 'proto'>, state: SessionState, onError: (err: unknown) => void, retriesMs?: readonly number[]) {
  const { BufferJSON, initAuthCreds, proto } = baileys;
  const encode = (value: unknown): unknown => JSON.parse(JSON.stringify(value, BufferJSON.replacer));
  const decode = <T>(value: unknown): T => JSON.parse(JSON.stringify(value), BufferJSON.reviver) as T;
  const write = orderedStateWrites(state, onError, retriesMs);
  const stored = (await state.get([CREDS]))[CREDS];
  const creds: AuthenticationCreds = stored ? decode(stored) : initAuthCreds();
  const keys: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const values = await state.get(ids.map((id) => keyOf(type, id)));
      const out: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const raw = values[keyOf(type, id)];
        if (raw === undefined) continue;
        let value = decode<SignalDataTypeMap[T]>(raw);
        if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
        out[id] = value;
      }
      return out;
    },
    async set(data: SignalDataSet) {
      const entries: Record<string, unknown> = {};
      for (const [type, values] of Object.entries(data)) for (const [id, value] of Object.entries(values ?? {})) entries[keyOf(type, id)] = value ? encode(value) : null;
      await write(() => entries);
    },
  };
  const saveCreds = () => write(() => ({ [CREDS]: encode(creds) }));
  return { creds, keys, saveCreds };
}

/** WhatsApp Web's keepalive interval, and its wait for a connection's handshake. */
export const WA_KEEPALIVE_MS = 10_000;
export const WA_CONNECT_TIMEOUT_MS = 20_000;

/**
 * Whether a frame from WhatsApp answers something the account wrote (a keepalive's answer or any other query's, an
 * ack): the connection carries the account's writes too. What WhatsApp writes unasked (customers' messages, receipts)
 * still comes over a connection whose other direction is dead, and says nothing of it.
 */
export function answersTheAccount(frame: unknown): boolean {
  const node = frame as { tag?: unknown; attrs?: Record<string, unknown> } | null;
  if (!node || typeof node.tag !== 'string') return false;
  return node.tag === 'ack' || (node.tag === 'iq' && (node.attrs?.type === 'result' || node.attrs?.type === 'error'));
}

/** A library's silent logger: the driver reports what matters through the gateway's own log. */
const quiet = { level: 'silent', child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The real library behind the adapter: one socket per connection, the session's state as its auth state. */
export function baileysLibrary(options: { browser?: [string, string, string] } = {}): WaLibrary {
  return {
    async open({ state, wsUrl, onStateError }): Promise<WaSocket> {
      const baileys = await loadBaileys();
      if (!baileys) throw new Error('the optional package baileys is not installed');
      const auth = await sessionAuth(baileys, state, onStateError);
      const sock = baileys.default({
        auth: { creds: auth.creds, keys: baileys.makeCacheableSignalKeyStore(auth.keys, quiet as never) },
        ...(wsUrl ? { waWebSocketUrl: wsUrl } : {}),
        logger: quiet as never,
        browser: options.browser ?? baileys.Browsers.ubuntu('Chrome'),
        markOnlineOnConnect: false,
        syncFullHistory: false,
        // Each QR lives a little less than the gateway's own QR cycle, so the next is issued before the shown one expires.
        qrTimeout: 19_000,
        // Messages the gateway sent are found again by WhatsApp's retries through the store of the chat history.
        getMessage: async () => undefined,
        // A keepalive every 10 s: the session's watchdog takes a connection that heard nothing for 20 s as dead.
        keepAliveIntervalMs: WA_KEEPALIVE_MS,
        connectTimeoutMs: WA_CONNECT_TIMEOUT_MS,
      });
      // Reported through onStateError when it keeps failing; the library's own call goes on without waiting for it.
      sock.ev.on('creds.update', () => void auth.saveCreds().catch(() => {}));
      type Stanza = { attrs: Record<string, string | undefined> };
      const acks: ((ack: WaAck) => void)[] = [];
      // The server's acknowledgement of a message written (`<ack class="message" id=... [error=...]/>`): the library
      // reads only refusals from it.
      sock.ws.on('CB:ack,class:message', (node: Stanza) => {
        const { id, error } = node.attrs;
        if (id) for (const handler of acks) handler(error ? { id, error } : { id });
      });
      return {
        user: () => sock.user && { id: sock.user.id, name: sock.user.name ?? sock.user.notify ?? sock.user.verifiedName },
        on: (event, handler) => sock.ev.on(event, handler as never),
        onAck: (handler) => acks.push(handler),
        onHeard: (handler) => sock.ws.on('frame', (frame: unknown) => answersTheAccount(frame) && handler()),
        sendMessage: (jid, content, opts) => sock.sendMessage(jid, content, opts),
        sendPresenceUpdate: (type, jid) => sock.sendPresenceUpdate(type, jid),
        presenceSubscribe: (jid) => sock.presenceSubscribe(jid),
        requestPairingCode: (phone) => sock.requestPairingCode(phone),
        onWhatsApp: (...phones) => sock.onWhatsApp(...phones) as Promise<{ exists: boolean; jid: string }[] | undefined>,
        downloadMedia: (message) => baileys.downloadMediaMessage(message, 'buffer', {}, { logger: quiet as never, reuploadRequest: sock.updateMediaMessage }),
        logout: () => sock.logout(),
        end: () => sock.end(undefined),
      };
    },
  };
}
