import type { AnyMessageContent, BaileysEventMap, MiscMessageGenerationOptions, WAMessage } from 'baileys';
import type { SessionState } from '../../core/sessions/ports.ts';
import type { WaAck } from './acks.ts';

/**
 * The part of WhatsApp Web's library (Baileys) the driver uses, and nothing more: its events, by their own names and
 * payload types, and the calls the driver makes. The real library stands behind it in production (baileys-socket.ts);
 * tests put a fake emitting the same payloads in its place. Only types come from the library here: without the
 * optional package installed nothing of it is loaded.
 */
export type WaEvents = Pick<
  BaileysEventMap,
  'connection.update' | 'creds.update' | 'messages.upsert' | 'messages.update' | 'messaging-history.set' | 'groups.update' | 'group-participants.update' | 'presence.update'
>;

export interface WaSocket {
  /** The linked account (its JID and name), once the connection is open. */
  user(): { id: string; name?: string | undefined } | undefined;
  on<E extends keyof WaEvents>(event: E, handler: (payload: WaEvents[E]) => void): void;
  /**
   * WhatsApp's server acknowledged a message the account wrote (`<ack class="message">`): taken, or refused with an
   * error code. The library acts on refusals only (a `messages.update` with status ERROR); a message taken is
   * reported here alone.
   */
  onAck(handler: (ack: WaAck) => void): void;
  /**
   * WhatsApp answered something the account wrote on this connection (a keepalive's answer, an ack): it is alive both
   * ways. Customers' messages alone do not count: they still come when the account's writes no longer get through.
   */
  onHeard(handler: () => void): void;
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  /** Shows the account typing (`composing`) in a chat, or no longer (`paused`). */
  sendPresenceUpdate(type: 'composing' | 'paused', jid: string): Promise<void>;
  /** Asks WhatsApp for a person's presence on this connection: their typing then comes as `presence.update`. */
  presenceSubscribe(jid: string): Promise<void>;
  /** WhatsApp's 8-character code for linking by phone number instead of the QR (only while the QR is shown). */
  requestPairingCode(phone: string): Promise<string>;
  onWhatsApp(...phones: string[]): Promise<{ exists: boolean; jid: string }[] | undefined>;
  /**
   * The decrypted bytes of a media message's file (image, video, audio, document, sticker), fetched from WhatsApp's
   * media servers; a file those no longer hold is asked of the phone again.
   */
  downloadMedia(message: WAMessage): Promise<Buffer>;
  logout(): Promise<void>;
  /** Closes the connection without logging out. */
  end(): void;
}

/** Opens one connection of a session with its stored state (read and written through `state`). */
export interface WaLibrary {
  open(input: { state: SessionState; wsUrl: string | null; onStateError(err: unknown): void }): Promise<WaSocket>;
}

/** The status codes the library closes connections with (Baileys' DisconnectReason). */
export const WaDisconnect = {
  connectionClosed: 428,
  timedOut: 408,
  connectionReplaced: 440,
  loggedOut: 401,
  badSession: 500,
  restartRequired: 515,
  multideviceMismatch: 411,
  forbidden: 403,
  unavailableService: 503,
} as const;

/** The status code a closed connection reports (a Boom error's), if any. */
export function disconnectCode(error: unknown): number | undefined {
  const output = (error as { output?: { statusCode?: unknown } } | undefined)?.output;
  return typeof output?.statusCode === 'number' ? output.statusCode : undefined;
}
