/**
 * The realtime stream of the frame: socket.io at `realtimePath`, authenticated by the session token in the
 * handshake. Every event carries its position in the account's stream; a client that reconnects sends the
 * last position it saw and gets what it missed (`caught_up`), or `resync` when it is too far behind and must
 * refetch. Events may arrive twice (after a reconnect, or a retried dispatch): clients drop repeats by `id`.
 */
import { Type, type Static } from 'typebox';
import type { ChannelStatus, ChatType, Tier } from './channels.ts';

export const realtimePath = '/bff/socket.io';

/** The events pushed to frames: the account's stream, filtered by what the session may see. */
export const streamEventNames = [
  'message.add',
  'message.status_update',
  'message.edit',
  'message.delete',
  'message.reaction',
  'chat.unanswered_update',
  'chat.answered',
  'channel.status_update',
  'channel.create',
  'channel.delete',
  'channel.qr_update',
  'channel.waba_tier_update',
  'waba_template.status_update',
  'group_chat.update',
  'group_chat.memberships_update',
] as const;
export type StreamEventName = (typeof streamEventNames)[number];

/** Which chat an event is about. Chat events carry it at the top level or, for message.add, in `recipient`. */
export interface ChatOfEvent {
  channel_id?: string;
  chat_type?: ChatType;
  chat_id?: string | null;
}

interface Recipient {
  chat_type: ChatType;
  chat_id?: string | null;
  username?: string | null;
  phone?: string | null;
  name?: string | null;
}

interface Sender {
  chat_type: ChatType;
  chat_id: string | null;
  name: string | null;
  username: string | null;
  phone: string | null;
}

interface AttachmentPayload {
  url: string;
  name?: string;
  mimetype?: string;
  size?: number;
  sha1?: string;
}

/** Payloads as the interface defines them (webhook `data` elements); extra fields may be present. */
export interface StreamEventPayloads {
  'message.add': ChatOfEvent & {
    message_id: string;
    channel_id: string;
    direction: 'inbound' | 'outbound';
    quoted_message_id?: string | null;
    timestamp: number;
    crm_user_id?: string | null;
    status: string;
    recipient: Recipient;
    /** Inbound only: who wrote, the member in a group chat (absent when the messenger did not name one), the customer otherwise. */
    sender?: Sender;
    text?: string;
    attachment?: AttachmentPayload;
    template?: { id: string; values?: string[]; buttons?: { text: string; payload: string }[] };
    /**
     * Frames only (never a webhook): words that are the caption of the file added just before them (the same
     * message at the messenger, recorded as two), by the file's message id. The frame draws the two as one bubble
     * and counts them as one unread message.
     */
    caption_of?: string;
  };
  'message.status_update': ChatOfEvent & {
    message_id: string | null;
    request_id: string | null;
    status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
    reason: string | null;
  };
  'message.edit': ChatOfEvent & {
    message_id: string;
    crm_user_id: string | null;
    timestamp: number;
    text?: string;
    old_text?: string;
    attachment?: AttachmentPayload;
    old_attachment?: AttachmentPayload;
  };
  'message.delete': ChatOfEvent & { message_id: string; crm_user_id: string | null; timestamp: number };
  /**
   * An emoji reaction to a message was set (`emoji`) or taken back (`emoji` null) by the agent's side (`by: agent`,
   * with its `crm_user_id`) or a customer (`by: customer`; `reactor` is the messenger's id of who reacted).
   */
  'message.reaction': ChatOfEvent & {
    message_id: string;
    by: 'agent' | 'customer';
    reactor: string;
    emoji: string | null;
    old_emoji: string | null;
    crm_user_id: string | null;
    timestamp: number;
  };
  /**
   * The unanswered counter of one chat may have changed (a message arrived, a reply was sent); the frame sums
   * them for the host's badge. Frames only (never a webhook): derived from the event that caused it, whose
   * `position` it shares, with the id `<that event's id>.unanswered`. Keep, per chat, the value of the highest
   * position seen: pushes may arrive out of order, the latest position always holds the current count.
   */
  'chat.unanswered_update': Required<ChatOfEvent> & { chat_ref: string; unanswered_count: number };
  /**
   * An agent marked the chat answered without sending (frames only, never a webhook); a `chat.unanswered_update`
   * with the new count follows it.
   */
  'chat.answered': Required<ChatOfEvent> & { chat_ref: string; crm_user_id: string | null; timestamp: number };
  'channel.status_update': { channel_id: string; status: ChannelStatus; reason: string | null };
  'channel.create': { channel_id: string; timestamp: number };
  'channel.delete': { channel_id: string; timestamp: number };
  'channel.qr_update': { channel_id: string; qr_code: string; platform: string };
  'channel.waba_tier_update': { channel_id: string; tier: Tier };
  'waba_template.status_update': { template_id: string; status: string; timestamp: number };
  /** `old_group_id`: the id the group had before the messenger moved it to `group_id` (a Telegram group that became a supergroup). */
  'group_chat.update': { group_id: string; name: string | null; avatar_url: string | null; old_group_id?: string };
  'group_chat.memberships_update': { group_id: string; members: unknown[] };
}

/** One event of the stream. `position` orders the account's events; it is what a reconnecting client sends back. */
export type StreamEvent = {
  [N in StreamEventName]: { id: string; position: number; name: N; payload: StreamEventPayloads[N]; created_at: string };
}[StreamEventName];

/** What a (re)connecting client missed, oldest first; afterwards its position is `position`. */
export interface CaughtUp {
  events: StreamEvent[];
  position: number;
}

/** The client is too far behind (or its position is unknown): refetch over HTTP, then continue from `position`. */
export interface Resync {
  reason: 'too_far_behind' | 'unknown_position';
  position: number;
}

export interface SessionEnded {
  reason: 'revoked' | 'expired';
}

/** A position in the account's stream, as the gateway sent it (`event.position`, `caught_up.position`). */
export const StreamPosition = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** The handshake: `io(origin, { path: realtimePath, auth: { token, after } })`. Other fields are ignored. */
export const HandshakeAuth = Type.Object({
  token: Type.String({ maxLength: 1024, description: 'The session token (POST /bff/session).' }),
  after: Type.Optional(Type.Union([StreamPosition, Type.Null()], { description: 'The last position seen; absent (or null) on the first connection.' })),
});
export type HandshakeAuth = Static<typeof HandshakeAuth>;

/**
 * What a frame may send, one schema per event for its single argument (absent reads as null; a trailing
 * acknowledgement callback is allowed). A message that fails its schema is answered with `refused`, never acted
 * on; an event not named here is ignored.
 */
export const clientEventPayloads = {
  /** Asks again for what came after `after` (answered by `caught_up` or `resync`); null asks as a first connection. */
  catch_up: Type.Union([StreamPosition, Type.Null()]),
} as const;
export type ClientEventName = keyof typeof clientEventPayloads;
export const clientEventNames = Object.keys(clientEventPayloads) as ClientEventName[];

/** A frame's message that failed its event's schema; after `maxRefusedMessages` of them the connection is ended. */
export interface MessageRefused {
  event: string;
  error: 'VALIDATION_ERROR';
  /** Each failing place (`/0` is the first argument) and why. */
  fields: { field: string; message: string }[];
}
export const maxRefusedMessages = 10;

/**
 * A customer is typing in a chat (lasts about 5 s unless told again), or, `stopped`, stopped without sending; never
 * stored, never caught up.
 */
export interface ChatTyping {
  channel_id: string;
  chat_ref: string;
  chat_type: ChatType;
  chat_id: string | null;
  at: string;
  stopped?: true;
}

export interface ServerToClientEvents {
  event: (event: StreamEvent) => void;
  typing: (typing: ChatTyping) => void;
  caught_up: (batch: CaughtUp) => void;
  resync: (signal: Resync) => void;
  session_ended: (info: SessionEnded) => void;
  refused: (info: MessageRefused) => void;
}

export interface ClientToServerEvents {
  /** Asks again for what came after `after` (answered by `caught_up` or `resync`). */
  catch_up: (after: Static<(typeof clientEventPayloads)['catch_up']>) => void;
}

/** Why a handshake was refused (`connect_error` message). */
export const realtimeErrors = { unauthorized: 'UNAUTHORIZED', invalid: 'VALIDATION_ERROR' } as const;
