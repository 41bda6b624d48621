import { createHash } from 'node:crypto';
import type { AnyMessageContent, MiscMessageGenerationOptions, proto, WAMessage } from 'baileys';
import type { SessionState } from '../core/sessions/ports.ts';
import type { WaAck } from '../transports/whatsapp/acks.ts';
import type { WaEvents, WaLibrary, WaSocket } from '../transports/whatsapp/wa-socket.ts';

/** A Boom error as the library closes connections with (only its status code is read). */
export const closedWith = (statusCode: number) => Object.assign(new Error(`closed ${statusCode}`), { isBoom: true, output: { statusCode, payload: {} } });

/** An error in WhatsApp's answer to a call, as the library throws it (`<error code="403" text="forbidden"/>`). */
export const refusedWith = (code: number, text: string) => Object.assign(new Error(text), { isBoom: true, data: code, output: { statusCode: 500, payload: {} } });

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
  /** The files of the media messages the test delivers, by message id: what the library would download and decrypt. */
  readonly media = new Map<string, Buffer>();
  /** How the next send answers: its message back (as the library), or an error. */
  sendFails: Error | null = null;
  /**
   * Whether a sent image comes back at once as an upsert of the account's own (the library's `emitOwnEvents`, on by
   * default), before the send resolves: its file then downloadable, as the library could.
   */
  echoesImages = false;
  /** Holds the sends' answers until it settles (the library's copy of a send is reported meanwhile). */
  sendGate: Promise<void> | null = null;
  /**
   * How WhatsApp's server acknowledges what is written: `auto`, right after the write (a live connection); `held`,
   * not until the test says (`ackWritten`), as over a connection gone silent; `never`, as over one that is dead.
   */
  acks: 'auto' | 'held' | 'never' = 'auto';
  /** Message ids written and not acknowledged yet (acks `held`). */
  readonly unacked: string[] = [];
  readonly #ackHandlers: ((ack: WaAck) => void)[] = [];
  readonly #heardHandlers: (() => void)[] = [];

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
    // What the library reports came in a frame from WhatsApp, but for a close: the connection was lost, not heard.
    if (!(event === 'connection.update' && (payload as WaEvents['connection.update']).connection === 'close')) this.hear();
    for (const handler of this.handlers.get(event) ?? []) handler(payload as never);
  }
  onAck(handler: (ack: WaAck) => void): void {
    this.#ackHandlers.push(handler);
  }
  onHeard(handler: () => void): void {
    this.#heardHandlers.push(handler);
  }
  /** A frame came from WhatsApp (a keepalive's answer, any stanza). */
  hear(): void {
    for (const handler of this.#heardHandlers) handler();
  }
  /** WhatsApp's server acknowledges a written message (refused, with `error`). */
  ack(id: string, error?: string): void {
    this.hear();
    const at = this.unacked.indexOf(id);
    if (at >= 0) this.unacked.splice(at, 1);
    for (const handler of this.#ackHandlers) handler(error ? { id, error } : { id });
  }
  /** Acknowledges every message written and held so far. */
  ackWritten(): void {
    for (const id of [...this.unacked]) this.ack(id);
  }
  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined> {
    if (this.sendFails) throw this.sendFails;
    this.sent.push({ jid, content, options });
    const image = (content as { image?: Buffer }).image;
    if (this.echoesImages && image) {
      const id = options?.messageId ?? 'generated';
      this.media.set(id, image);
      this.emit('messages.upsert', { type: 'append', messages: [{ key: { remoteJid: jid, fromMe: true, id }, message: mediaContent.image(image), messageTimestamp: 1_795_704_700, status: 1 }] });
    }
    await this.sendGate;
    const written = options?.messageId ?? 'generated';
    if (this.acks === 'auto') queueMicrotask(() => this.ack(written));
    else if (this.acks === 'held') this.unacked.push(written);
    // What the library answers for a text (as it did against the fake WhatsApp server): the key it sent under.
    return { key: { remoteJid: jid, fromMe: true, id: options?.messageId ?? 'generated' }, message: { extendedTextMessage: { text: (content as { text?: string }).text ?? '' } }, messageTimestamp: 1_795_704_700, status: 1 } as WAMessage;
  }
  /** The presences the driver showed, in order. */
  readonly presences: { type: string; jid: string }[] = [];
  async sendPresenceUpdate(type: 'composing' | 'paused', jid: string): Promise<void> {
    this.presences.push({ type, jid });
  }
  /** The people whose presence the driver asked for, in order. */
  readonly presenceSubscriptions: string[] = [];
  async presenceSubscribe(jid: string): Promise<void> {
    this.presenceSubscriptions.push(jid);
  }
  async requestPairingCode(phone: string): Promise<string> {
    this.pairingCodes.push(phone);
    return 'K7QW3PZX';
  }
  async onWhatsApp(...phones: string[]) {
    return phones.map((p) => ({ exists: this.registered.has(p), jid: this.registered.get(p) ?? `${p}@s.whatsapp.net` }));
  }
  async downloadMedia(message: WAMessage): Promise<Buffer> {
    const bytes = this.media.get(message.key.id ?? '');
    // What the library throws when WhatsApp's media server answers 404 and the phone cannot upload the file again.
    if (!bytes) throw Object.assign(new Error('Failed to fetch stream from https://mmg.whatsapp.net/v/t62.7118-24/gone.enc'), { isBoom: true, output: { statusCode: 404, payload: {} } });
    this.downloads.push(message.key.id!);
    return bytes;
  }
  readonly downloads: string[] = [];
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

const sha256 = (bytes: Buffer) => new Uint8Array(createHash('sha256').update(bytes).digest());

/**
 * What every media message carries (typed by the library's protobuf interfaces): where WhatsApp's media server keeps
 * the encrypted file, the key that opens it, the file's hashes and length.
 */
const mediaFields = (bytes: Buffer, mimetype: string) => ({
  url: 'https://mmg.whatsapp.net/v/t62.7118-24/29518463_1054236859936227_2301735066155871834_n.enc?ccb=11-4&oh=01_Q5Aa1wF&oe=69A1C2B4&_nc_sid=5e03e0&mms3=true',
  mimetype,
  fileSha256: sha256(bytes),
  fileLength: bytes.length,
  mediaKey: new Uint8Array(32).fill(7),
  fileEncSha256: sha256(Buffer.concat([bytes, Buffer.from('enc')])),
  directPath: '/v/t62.7118-24/29518463_1054236859936227_2301735066155871834_n.enc?ccb=11-4&oh=01_Q5Aa1wF&oe=69A1C2B4&_nc_sid=5e03e0',
  mediaKeyTimestamp: 1_795_704_690,
});

/** The content of media messages as WhatsApp's clients send them (a document with a caption comes wrapped). */
export const mediaContent = {
  image: (bytes: Buffer, caption?: string): proto.IMessage => ({
    imageMessage: { ...mediaFields(bytes, 'image/jpeg'), height: 1280, width: 960, jpegThumbnail: new Uint8Array(16), ...(caption ? { caption } : {}) } satisfies proto.Message.IImageMessage,
  }),
  video: (bytes: Buffer, caption?: string): proto.IMessage => ({
    videoMessage: { ...mediaFields(bytes, 'video/mp4'), seconds: 12, height: 720, width: 1280, gifPlayback: false, ...(caption ? { caption } : {}) } satisfies proto.Message.IVideoMessage,
  }),
  audio: (bytes: Buffer): proto.IMessage => ({ audioMessage: { ...mediaFields(bytes, 'audio/mpeg'), seconds: 185, ptt: false } satisfies proto.Message.IAudioMessage }),
  voice: (bytes: Buffer): proto.IMessage => ({
    audioMessage: { ...mediaFields(bytes, 'audio/ogg; codecs=opus'), seconds: 4, ptt: true, waveform: new Uint8Array(64) } satisfies proto.Message.IAudioMessage,
  }),
  document: (bytes: Buffer, fileName: string, caption?: string): proto.IMessage => {
    const documentMessage = { ...mediaFields(bytes, 'application/pdf'), fileName, title: fileName, pageCount: 2, ...(caption ? { caption } : {}) } satisfies proto.Message.IDocumentMessage;
    return caption ? { documentWithCaptionMessage: { message: { documentMessage } } } : { documentMessage };
  },
};

/** A customer's message of any content, in a chat with them or in a group (`groupJid`, then the customer writes in it). */
export const customerMessage = (phone: string, id: string, message: proto.IMessage, groupJid?: string, name = 'Test User'): WAMessage => ({
  key: groupJid
    ? { remoteJid: groupJid, fromMe: false, id, participant: `${phone}@s.whatsapp.net`, addressingMode: 'pn' }
    : { remoteJid: `${phone}@s.whatsapp.net`, fromMe: false, id, participant: '', addressingMode: 'pn' },
  messageTimestamp: 1_795_704_697,
  pushName: name,
  broadcast: false,
  message,
});
