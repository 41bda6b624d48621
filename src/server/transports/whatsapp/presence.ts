import type { WAMessage } from 'baileys';
import type { ChatType } from '../../../contract/channels.ts';
import { chatOf } from './addresses.ts';
import { numberOf } from './inbound.ts';
import type { WaEvents, WaSocket } from './wa-socket.ts';

/**
 * A customer's typing, as WhatsApp tells it: only to a connection that subscribed to the customer's presence
 * (`<presence type="subscribe" to=…/>`, the library's `presenceSubscribe`), each `<chatstate>` the library reports
 * as `presence.update` (`composing`, `recording` for a voice note; `paused` comes as `available`). A subscription
 * lasts as long as the connection: each socket subscribes once per chat, when the customer writes or the agent types
 * in the chat.
 */
const subscribed = new WeakMap<WaSocket, Set<string>>();

/** Subscribes the connection to a person's presence, once; best effort (a refusal only leaves typing unheard). */
export function subscribePresence(socket: WaSocket, jid: string): void {
  if (!jid.endsWith('@s.whatsapp.net')) return;
  let jids = subscribed.get(socket);
  if (!jids) subscribed.set(socket, (jids = new Set()));
  if (jids.has(jid)) return;
  jids.add(jid);
  socket.presenceSubscribe(jid).catch(() => jids.delete(jid));
}

/** How recent a customer's message must be for their presence to be asked for. */
export const RECENT_WRITER_MS = 5 * 60_000;

/**
 * The private chats whose customer just wrote (WhatsApp's live delivery, `notify`, of a message of the last five
 * minutes): their presence is asked for. The backlog WhatsApp delivers on a reconnect asks for none: one subscription
 * per customer who wrote while the session was away would be a burst no WhatsApp Web client makes.
 */
export function writersOf(upsert: WaEvents['messages.upsert'], nowMs: number): string[] {
  if (upsert.type !== 'notify') return [];
  const recent = (m: WAMessage) => (numberOf(m.messageTimestamp) ?? 0) * 1000 >= nowMs - RECENT_WRITER_MS;
  const writers = (upsert.messages as WAMessage[]).filter((m) => !m.key?.fromMe && m.key?.remoteJid?.endsWith('@s.whatsapp.net') && m.message && recent(m));
  return [...new Set(writers.map((m) => m.key.remoteJid!))];
}

/** What WhatsApp's presence update shows as "typing…": writing, or recording a voice note. */
const TYPING = new Set(['composing', 'recording']);

/**
 * The private chat whose customer is typing, or stopped (`paused`, which the library reports as `available`, as it
 * does their coming online: either way they are not typing now), from a presence update; null for a group.
 */
export function typingOf(update: WaEvents['presence.update']): { chatType: ChatType; chatId: string; stopped?: true } | null {
  const chat = chatOf(update.id);
  if (chat?.chatType !== 'whatsapp') return null;
  return Object.values(update.presences).some((p) => TYPING.has(p.lastKnownPresence)) ? chat : { ...chat, stopped: true };
}
