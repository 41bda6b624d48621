import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartedWhatsAppServer } from '@openclaw/crabline';
import { quietLibsignal } from '../transports/whatsapp/libsignal-console.ts';
import { encryptedAsPhone, type DeviceBundle } from './whatsapp-customer-device.ts';
import { assertSeam, installServerSeam, loadWhatsAppDictionary, setServerHook, type ServerConnection, type WaNode } from './whatsapp-server-hooks.ts';
import { loginFailures, streamErrors, type LoginFailureKind, type StreamErrorKind } from './whatsapp-stream-errors.ts';

/**
 * The fake WhatsApp server (crabline) made to answer the way WhatsApp does when things go wrong: its acks for a sent
 * message late, held or lost; a stream error or a failed login at will; an older connection of the same device
 * replaced (`<conflict type="replaced"/>`) when a newer one logs in; a customer's message kept until the client acks
 * it and written again on the next connection (WhatsApp's offline queue). It records every message it accepted from
 * the account by WhatsApp message id, so a test can say what reached WhatsApp and how often.
 */
export type AckMode = 'now' | 'hold' | 'lose' | { delayMs: number };

export interface FaultServer {
  server: StartedWhatsAppServer;
  /** The WebSocket address Baileys is given (WHATSAPP_WS_URL), straight to the server. */
  wsUrl: string;
  /** The linked account's number. */
  phone: string;
  /** Every message the account sent that the server accepted, once per WhatsApp message id, in order. */
  delivered: { id: string; text: string; at: number }[];
  /** Message ids whose server ack was written to the client. */
  acked: Set<string>;
  /** How the server acks the account's messages from now on. */
  setAcks(mode: AckMode): void;
  /** Writes the held acks to the connections that are still open (the others' sends get acked when sent again). */
  releaseAcks(): number;
  /** Writes a stream error to every open connection and ends them; answers how many. */
  streamError(kind: StreamErrorKind): Promise<number>;
  /** Answers the next `count` logins with a failure instead of success. */
  failLogins(kind: LoginFailureKind, count?: number): void;
  /** Connections that completed a login and are open. */
  openConnections(): number;
  /** Logins that succeeded since the start. */
  logins(): number;
  /** Customers' messages written to the account and not acked by its client yet (WhatsApp's offline queue). */
  offlineQueue(): number;
  /** How the server's connections closed since the start (WebSocket close code and reason), and how often. */
  closes(): Map<string, number>;
  /**
   * From now on customers' messages reach the account encrypted with Signal to this device (its key bundle), as a
   * phone writes them, and a retry receipt is answered with the message encrypted again; before, they come as plaintext.
   */
  encryptInbound(device: DeviceBundle): void;
  /** Customers' messages written encrypted, by kind (a new session's, an established one's), and written again after a retry receipt. */
  encryption(): { pkmsg: number; msg: number; retried: number };
  /**
   * A customer's typing state, as WhatsApp tells it (`<chatstate from=…><composing/></chatstate>`; a voice note being
   * recorded is `<composing media="audio"/>`), written only to the connections that subscribed to the customer's
   * presence (`<presence type="subscribe" to=…/>`). Answers how many got it.
   */
  customerTyping(state: 'composing' | 'recording' | 'paused', from?: string): Promise<number>;
  /** The people whose presence each open connection subscribed to. */
  presenceSubscriptions(): string[][];
  /** A customer's text, as WhatsApp would deliver it to the account. */
  inject(text: string, from?: string): Promise<void>;
  deliveredCount(text: string): number;
  close(): Promise<void>;
}

interface Tracked {
  connection: ServerConnection;
  loggedIn: boolean;
  /** Ended by the fake (a stream error, a failed login, replaced): nothing more is written to it. */
  ended: boolean;
  /** The people whose presence the client subscribed to on this connection. */
  presence: Set<string>;
}

const OPEN = 1;

/** The message ids a client's receipt names: its own id, and those of its `<list><item id/></list>` (several at once). */
function receiptIds(node: { attrs?: Record<string, string>; content?: unknown }): string[] {
  const ids = node.attrs?.id ? [node.attrs.id] : [];
  const children = Array.isArray(node.content) ? (node.content as { tag?: string; content?: unknown }[]) : [];
  for (const list of children.filter((c) => c.tag === 'list')) {
    for (const item of Array.isArray(list.content) ? (list.content as { attrs?: Record<string, string> }[]) : []) if (item.attrs?.id) ids.push(item.attrs.id);
  }
  return ids;
}

export async function startFaultServer(options: { replaceOlder?: boolean } = {}): Promise<FaultServer> {
  installServerSeam();
  // The server shares the library's Signal package, which prints each session's private keys: quieted before either
  // loads it, as the gateway does, so a key printed in a test's output is the gateway's failure, not the fake's noise.
  quietLibsignal();
  await loadWhatsAppDictionary();
  const { startWhatsAppServer } = await import('@openclaw/crabline');
  assertSeam();
  const replaceOlder = options.replaceOlder ?? true;
  const tracked = new Map<ServerConnection, Tracked>();
  const delivered: FaultServer['delivered'] = [];
  const acked = new Set<string>();
  let ackMode: AckMode = 'now';
  let held: { connection: ServerConnection; node: WaNode }[] = [];
  const loginFailuresDue: LoginFailureKind[] = [];
  let logins = 0;
  const closes = new Map<string, number>();
  /** Customers' messages written to a client and not acked by it yet, by id: written again on the next login. */
  const unconfirmed = new Map<string, WaNode>();
  let device: DeviceBundle | null = null;
  /** Customers' messages as the fake made them, before the phone encrypted them: what a retry encrypts again. */
  const plainById = new Map<string, WaNode>();
  /** Ids asked again by the client and being written again: its nack that follows does not drop them from the queue. */
  const retrying = new Set<string>();
  const encryption = { pkmsg: 0, msg: 0, retried: 0 };
  /** The phone writes a message again, encrypted from a fresh session, on the first open connection. */
  const answerRetry = async (id: string) => {
    const plain = plainById.get(id);
    const target = live()[0];
    if (!plain || !device || !target) return retrying.delete(id);
    const node = await encryptedAsPhone(target.connection, plain, device, { fresh: true });
    unconfirmed.set(id, node);
    retrying.delete(id);
    encryption.retried++;
    await target.connection.writeNode(node).catch(() => {});
  };

  const endConnection = (t: Tracked) => {
    t.ended = true;
    // WhatsApp closes the stream right after its last word; the client usually closes first.
    setTimeout(() => t.connection.socket.readyState === OPEN && t.connection.socket.close(), 200).unref();
  };
  /** WhatsApp's offline queue, written again to a new connection one message after another. */
  const redeliver = async (connection: ServerConnection, t: Tracked, pending: WaNode[]) => {
    for (const node of pending) {
      if (t.ended || connection.socket.readyState !== OPEN) return;
      await connection.writeNode(node).catch(() => {});
    }
  };
  const live = () => [...tracked.values()].filter((t) => t.loggedIn && !t.ended && t.connection.socket.readyState === OPEN);

  setServerHook({
    connected(connection) {
      tracked.set(connection, { connection, loggedIn: false, ended: false, presence: new Set() });
      connection.socket.once('close', (code, reason) => {
        tracked.delete(connection);
        const why = `${code} ${String(reason)}`.trim();
        closes.set(why, (closes.get(why) ?? 0) + 1);
      });
    },
    received(connection, node) {
      if (node.tag === 'presence' && node.attrs.type === 'subscribe' && node.attrs.to) tracked.get(connection)?.presence.add(node.attrs.to);
    },
    async send(connection, node) {
      const t = tracked.get(connection);
      // Throwing keeps a customer's message queued at the server rather than counted as delivered to a dead stream.
      if (!t || t.ended) throw new Error('the fake WhatsApp server ended this connection');
      if (node.tag === 'success') {
        const failure = loginFailuresDue.shift();
        if (failure) {
          await connection.writeNode(loginFailures[failure]);
          endConnection(t);
          throw new Error('login refused');
        }
        if (replaceOlder) {
          for (const other of live()) {
            await other.connection.writeNode(streamErrors.replaced).catch(() => {});
            endConnection(other);
          }
        }
        await connection.writeNode(node);
        t.loggedIn = true;
        logins++;
        // Written after the login, not within it: the server reads the client's frames (its acks and receipts of
        // these very messages) meanwhile, as WhatsApp does, instead of holding its read loop until all were written.
        void redeliver(connection, t, [...unconfirmed.values()]);
        return;
      }
      if (node.tag === 'message' && device) {
        const plain = node;
        node = await encryptedAsPhone(connection, node, device);
        const kind = node === plain ? null : (node.content as WaNode[]).find((c) => c.tag === 'enc')?.attrs.type;
        if (kind === 'pkmsg' || kind === 'msg') {
          plainById.set(node.attrs.id!, plain);
          encryption[kind]++;
        }
      }
      if (node.tag === 'message') unconfirmed.set(node.attrs.id!, node);
      if (node.tag === 'ack' && node.attrs.class === 'message') {
        const mode = ackMode;
        if (mode === 'lose') return;
        if (mode === 'hold') {
          held.push({ connection, node });
          return;
        }
        if (typeof mode === 'object') {
          setTimeout(() => {
            if (!t.ended && connection.socket.readyState === OPEN) void connection.writeNode(node).then(() => acked.add(node.attrs.id!), () => {});
          }, mode.delayMs).unref();
          return;
        }
        await connection.writeNode(node);
        acked.add(node.attrs.id!);
        return;
      }
      await connection.writeNode(node);
    },
  });

  const server = await startWhatsAppServer({
    host: '127.0.0.1',
    port: 0,
    // What the server records of its traffic goes to a temporary file, not into the checkout.
    recorderPath: join(tmpdir(), `whatsapp-fault-server-${process.pid}-${Date.now()}.jsonl`),
    onEvent(event) {
      const body = event.body as
        | { tag?: string; attrs?: Record<string, string>; content?: unknown; key?: { id: string; fromMe: boolean }; message?: { conversation?: string } }
        | undefined;
      // The client's receipt of a customer's message (what the library answers a message with; an ack only for a
      // message it could not take): WhatsApp drops it from the offline queue.
      if (body?.tag === 'receipt' && body.attrs?.type === 'retry' && body.attrs.id) {
        // The account could not decrypt it and asks the phone to write it again: WhatsApp passes the ask on.
        retrying.add(body.attrs.id);
        void answerRetry(body.attrs.id);
      } else if ((body?.tag === 'receipt' || (body?.tag === 'ack' && body.attrs?.class === 'message')) && body.attrs) {
        for (const id of receiptIds(body)) if (!retrying.has(id)) unconfirmed.delete(id);
      }
      if (!(event as { accepted?: boolean }).accepted || !body?.key?.fromMe || !body.message?.conversation) return;
      delivered.push({ id: body.key.id, text: body.message.conversation, at: Date.now() });
    },
  });
  const adminHeaders = { 'content-type': 'application/json', 'x-crabline-admin-token': server.manifest.adminToken };

  return {
    server,
    wsUrl: server.manifest.endpoints.baileysWebSocketUrl,
    phone: server.manifest.selfJid.split('@')[0]!,
    delivered,
    acked,
    setAcks(mode) {
      ackMode = mode;
    },
    releaseAcks() {
      const due = held;
      held = [];
      let written = 0;
      for (const { connection, node } of due) {
        const t = tracked.get(connection);
        if (!t || t.ended || connection.socket.readyState !== OPEN) continue;
        written++;
        void connection.writeNode(node).then(() => acked.add(node.attrs.id!), () => {});
      }
      return written;
    },
    async streamError(kind) {
      const targets = live();
      for (const t of targets) {
        await t.connection.writeNode(streamErrors[kind]).catch(() => {});
        endConnection(t);
      }
      return targets.length;
    },
    failLogins(kind, count = 1) {
      for (let i = 0; i < count; i++) loginFailuresDue.push(kind);
    },
    encryptInbound(bundle) {
      device = bundle;
    },
    encryption: () => ({ ...encryption }),
    openConnections: () => live().length,
    logins: () => logins,
    offlineQueue: () => unconfirmed.size,
    closes: () => closes,
    async customerTyping(state, from = '15551234567') {
      const jid = `${from}@s.whatsapp.net`;
      const child: WaNode = state === 'recording' ? { tag: 'composing', attrs: { media: 'audio' } } : { tag: state, attrs: {} };
      const targets = live().filter((t) => t.presence.has(jid));
      for (const t of targets) await t.connection.writeNode({ tag: 'chatstate', attrs: { from: jid }, content: [child] });
      return targets.length;
    },
    presenceSubscriptions: () => live().map((t) => [...t.presence]),
    async inject(text, from = '15551234567') {
      const res = await fetch(server.manifest.endpoints.adminInboundUrl, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({ chatJid: `${from}@s.whatsapp.net`, senderJid: `${from}@s.whatsapp.net`, text }),
      });
      if (res.status !== 200) throw new Error(`the fake WhatsApp server refused an inbound message: ${res.status} ${await res.text()}`);
    },
    deliveredCount: (text) => delivered.filter((d) => d.text === text).length,
    async close() {
      setServerHook(null);
      await server.close();
    },
  };
}
