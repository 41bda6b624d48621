import type { AnyMessageContent, MiscMessageGenerationOptions, WAMessage } from 'baileys';
import type { SessionState } from '../core/sessions/ports.ts';
import type { WaEvents, WaLibrary, WaSocket } from '../transports/whatsapp/wa-socket.ts';

/** A Boom error as the library closes connections with (only its status code is read). */
export const closedWith = (statusCode: number) => Object.assign(new Error(`closed ${statusCode}`), { isBoom: true, output: { statusCode, payload: {} } });

/** One socket the driver opened: the test emits what WhatsApp's library would, and reads what the driver called. */
export class FakeWaSocket implements WaSocket {
  readonly handlers = new Map<keyof WaEvents, ((payload: never) => void)[]>();
  readonly sent: { jid: string; content: AnyMessageContent; options: MiscMessageGenerationOptions | undefined }[] = [];
  readonly state: SessionState;
  linkedAs: { id: string; name?: string } | undefined;
  ended = false;
  loggedOut = false;
  pairingCodes: string[] = [];
  registered = new Map<string, string>();
  /** How the next send answers: its message back (as the library), or an error. */
  sendFails: Error | null = null;

  constructor(state: SessionState) {
    this.state = state;
  }

  user() {
    return this.linkedAs;
  }
  on<E extends keyof WaEvents>(event: E, handler: (payload: WaEvents[E]) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler as (payload: never) => void]);
  }
  emit<E extends keyof WaEvents>(event: E, payload: WaEvents[E]): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload as never);
  }
  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    if (this.sendFails) throw this.sendFails;
    this.sent.push({ jid, content, options });
    // What the library answers for a text (as it did against the fake WhatsApp server): the key it sent under.
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? 'generated' }, message: { extendedTextMessage: { text: (content as { text?: string }).text ?? '' } }, messageTimestamp: 1_795_704_700, status: 1 } as WAMessage;
  }
  async requestPairingCode(phone: string): Promise<string> {
    this.pairingCodes.push(phone);
    return 'K7QW3PZX';
  }
  async onWhatsApp(...phones: string[]) {
    return phones.map((p) => ({ exists: this.registered.has(p), jid: this.registered.get(p) ?? `${p}@s.whatsapp.net` }));
  }
  async logout(): Promise<void> {
    this.loggedOut = true;
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error: closedWith(401), date: new Date() } });
  }
  end(): void {
    this.ended = true;
  }

  /** The phone scanned (or confirmed the pairing code): the library reports the account and opens. */
  link(phone: string, name: string): void {
    this.linkedAs = { id: `${phone}:3@s.whatsapp.net`, name };
    this.emit('creds.update', { me: { id: `${phone}:3@s.whatsapp.net`, name } });
    this.emit('connection.update', { connection: 'open' });
  }
}

/** The library's stand-in: every socket the driver opens, in order. */
export class FakeWaLibrary implements WaLibrary {
  readonly sockets: FakeWaSocket[] = [];
  readonly openedAt: number[] = [];
  /** A session restored from its state opens linked as this account (what a stored session does). */
  restoreAs: { phone: string; name: string } | null = null;

  async open({ state }: { state: SessionState }): Promise<WaSocket> {
    const socket = new FakeWaSocket(state);
    this.sockets.push(socket);
    this.openedAt.push(performance.now());
    return socket;
  }

  last(): FakeWaSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no socket opened yet');
    return socket;
  }
}

/** A customer's text as the library delivers it (its shape as the real library produced it against the fake server). */
export const customerText = (phone: string, id: string, text: string, name = 'Test User'): WAMessage =>
  ({
    key: { remoteJid: `${phone}@s.whatsapp.net`, fromMe: false, id, participant: '', addressingMode: 'pn' },
    messageTimestamp: 1_795_704_697,
    pushName: name,
    broadcast: false,
    message: { conversation: text },
  }) as WAMessage;
