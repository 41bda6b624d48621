import type { BffMessage } from '../../../../contract/bff-chats.ts';
import type { MessageStatus } from '../../../../contract/messages.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';

/** `sending`: typed in this frame, the gateway has not accepted it yet. */
export type ShownStatus = MessageStatus | 'sending';

/**
 * A message as the history shows it: the /bff view, or what a live event or this frame's own send told of
 * it so far. `key` names it for rendering and never changes, even when a sent message learns its id.
 */
export interface ChatMessage extends Omit<BffMessage, 'message_id' | 'status' | 'chat_ref' | 'channel_id' | 'quoted_message'> {
  key: string;
  message_id: string | null;
  status: ShownStatus;
  quoted_message: BffMessage['quoted_message'] | { message_id: string; direction: null; text: null; attachment_name: null; deleted: false };
  /** A file drawn with its caption: the id of the message the words were recorded as (store/captions.ts). */
  caption_id?: string;
}

/** What an event said about a message that was not loaded yet; applied when a page brings the message. */
export interface MessagePatch {
  message_id?: string;
  status?: MessageStatus;
  reason?: string | null;
  edit?: { at: string; text?: string | null; attachment?: BffMessage['attachment'] };
  deleted_at?: string;
  /** Reactions set or taken back (`emoji` null), in the order they came. */
  reactions?: ReactionChange[];
}

/** One reactor's reaction as an event tells it. */
export interface ReactionChange {
  reactor: string;
  by: 'agent' | 'customer';
  emoji: string | null;
}

/** The message's reactions with one reactor's changed: replaced in place, added at the end, or taken out. */
export function withReaction(reactions: ChatMessage['reactions'], change: ReactionChange): NonNullable<ChatMessage['reactions']> {
  const others = (reactions ?? []).filter((r) => r.reactor !== change.reactor);
  if (change.emoji === null) return others;
  const at = (reactions ?? []).findIndex((r) => r.reactor === change.reactor);
  const mine = { emoji: change.emoji, by: change.by, reactor: change.reactor };
  if (at < 0) return [...others, mine];
  return [...others.slice(0, at), mine, ...others.slice(at)];
}

const rank: Record<Exclude<ShownStatus, 'failed'>, number> = { sending: -1, accepted: 0, sent: 1, delivered: 2, read: 3 };

/**
 * Status moves only forward (accepted → sent → delivered → read, or failed from accepted or sent): a late or
 * repeated receipt never moves a message back.
 */
export function laterStatus(current: ShownStatus, next: MessageStatus): ShownStatus {
  if (next === 'failed') return current === 'sending' || current === 'accepted' || current === 'sent' ? 'failed' : current;
  if (current === 'failed') return current;
  return rank[next] > rank[current] ? next : current;
}

export const fromBff = (m: BffMessage): ChatMessage => {
  const { chat_ref: _chat, channel_id: _channel, ...rest } = m;
  return { ...rest, key: m.message_id };
};

type Added = Extract<StreamEvent, { name: 'message.add' }>['payload'];

/** A message as `message.add` tells it; the quote is named by id and filled from the loaded history when there. */
export function fromAddEvent(p: Added, quoted: ChatMessage | undefined): ChatMessage {
  return {
    key: p.message_id,
    message_id: p.message_id,
    request_id: null,
    direction: p.direction,
    status: (p.status as MessageStatus) ?? 'accepted',
    reason: null,
    text: p.text ?? null,
    attachment: p.attachment ?? null,
    template: p.template ?? null,
    keyboard: null,
    quoted_message: p.quoted_message_id
      ? quoted && quoted.message_id
        ? { message_id: quoted.message_id, direction: quoted.direction, text: quoted.text, attachment_name: quoted.attachment?.name ?? null, deleted: quoted.deleted }
        : { message_id: p.quoted_message_id, direction: null, text: null, attachment_name: null, deleted: false }
      : null,
    author: p.crm_user_id ? { crm_user_id: p.crm_user_id, name: null } : null,
    created_at: new Date(p.timestamp).toISOString(),
    edited_at: null,
    deleted_at: null,
    deleted: false,
    // The words of the file before them: drawn with it at once (store/captions.ts).
    ...(p.caption_of ? { caption_of: p.caption_of } : {}),
  };
}

/**
 * A message this frame is sending (its words, a template with the words it fills in, or a file: its name while it
 * uploads): shown at once, matched later by its request id.
 */
export function sending(key: string, text: string | null, now: Date, template: ChatMessage['template'] = null, attachment: ChatMessage['attachment'] = null): ChatMessage {
  return {
    key,
    message_id: null,
    request_id: null,
    direction: 'outbound',
    status: 'sending',
    reason: null,
    text,
    attachment,
    template,
    keyboard: null,
    quoted_message: null,
    author: null,
    created_at: now.toISOString(),
    edited_at: null,
    deleted_at: null,
    deleted: false,
  };
}

/** Applies what events said; an edit older than what the message shows is ignored. */
export function applyPatch(m: ChatMessage, patch: MessagePatch): ChatMessage {
  let next = m;
  if (patch.message_id && !next.message_id) next = { ...next, message_id: patch.message_id };
  if (patch.status) {
    const status = laterStatus(next.status, patch.status);
    if (status !== next.status) next = { ...next, status, reason: status === 'failed' ? (patch.reason ?? null) : next.reason };
  }
  if (patch.edit && (!next.edited_at || Date.parse(next.edited_at) < Date.parse(patch.edit.at))) {
    next = {
      ...next,
      edited_at: patch.edit.at,
      ...(patch.edit.text !== undefined ? { text: patch.edit.text } : {}),
      ...(patch.edit.attachment !== undefined ? { attachment: patch.edit.attachment } : {}),
    };
  }
  if (patch.deleted_at && !next.deleted) next = { ...next, deleted: true, deleted_at: patch.deleted_at };
  if (patch.reactions) next = { ...next, reactions: patch.reactions.reduce(withReaction, next.reactions) };
  return next;
}

/** Two patches of one message as one, the later statuses and edits winning. */
export function mergePatches(a: MessagePatch | undefined, b: MessagePatch): MessagePatch {
  if (!a) return b;
  const status = a.status && b.status ? (laterStatus(a.status, b.status) as MessageStatus) : (b.status ?? a.status);
  const edit = a.edit && b.edit ? (Date.parse(a.edit.at) >= Date.parse(b.edit.at) ? a.edit : b.edit) : (b.edit ?? a.edit);
  return {
    ...a,
    ...b,
    ...(status ? { status, reason: status !== 'failed' ? null : a.status === 'failed' ? (a.reason ?? null) : (b.reason ?? null) } : {}),
    ...(edit ? { edit } : {}),
    ...(a.deleted_at || b.deleted_at ? { deleted_at: a.deleted_at ?? b.deleted_at } : {}),
    ...(a.reactions || b.reactions ? { reactions: [...(a.reactions ?? []), ...(b.reactions ?? [])] } : {}),
  };
}

/** The patch an event of the stream carries for one message, and the keys it names that message by. */
export function patchOfEvent(event: StreamEvent): { keys: string[]; patch: MessagePatch } | null {
  switch (event.name) {
    case 'message.status_update': {
      const p = event.payload;
      const keys = [p.message_id ? `m:${p.message_id}` : '', p.request_id ? `r:${p.request_id}` : ''].filter(Boolean);
      return { keys, patch: { ...(p.message_id ? { message_id: p.message_id } : {}), status: p.status, reason: p.reason } };
    }
    case 'message.edit': {
      const p = event.payload;
      const edit: MessagePatch['edit'] = { at: new Date(p.timestamp).toISOString() };
      if ('text' in p) edit.text = p.text ?? null;
      if ('attachment' in p) edit.attachment = p.attachment ?? null;
      return { keys: [`m:${p.message_id}`], patch: { edit } };
    }
    case 'message.delete':
      return { keys: [`m:${event.payload.message_id}`], patch: { deleted_at: new Date(event.payload.timestamp).toISOString() } };
    case 'message.reaction': {
      const { reactor, by, emoji } = event.payload;
      return { keys: [`m:${event.payload.message_id}`], patch: { reactions: [{ reactor, by, emoji }] } };
    }
    default:
      return null;
  }
}
