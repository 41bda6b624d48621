import type { BffChat, MessagePreview } from '../../../../contract/bff-chats.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { laterStatus } from '../store/message.ts';
import { sameChat } from '../store/scope.ts';
import type { ChatListData } from './get-chats.ts';

/**
 * What an event changes in a cached chat list. `placed` is false when the event is about a chat (or a message)
 * the list cannot place: a new chat, one on a page not read, a send whose chat the row does not show yet; the
 * list is then read again.
 */
export interface ListChange {
  data: ChatListData;
  placed: boolean;
}

function mapChats(data: ChatListData, change: (chat: BffChat) => BffChat): ChatListData {
  let changed = false;
  const pages = data.pages.map((page) => {
    const chats = page.chats.map((c) => {
      const next = change(c);
      if (next !== c) changed = true;
      return next;
    });
    return changed ? { ...page, chats } : page;
  });
  return changed ? { ...data, pages } : data;
}

const has = (data: ChatListData, match: (chat: BffChat) => boolean) => data.pages.some((p) => p.chats.some(match));

/** Updates the one row whose last message is `messageId`. */
const updateLast = (data: ChatListData, messageId: string, update: (m: MessagePreview) => MessagePreview): ChatListData =>
  mapChats(data, (c) => {
    if (c.last_message?.message_id !== messageId) return c;
    const last = update(c.last_message);
    return last === c.last_message ? c : { ...c, last_message: last };
  });

/**
 * The event applied to a list. Unanswered counts carry the stream position they were read at (`isNewer`), since
 * pushes may arrive out of order.
 */
export function applyToList(data: ChatListData, event: StreamEvent, isNewer: (chatRef: string, position: number) => boolean): ListChange {
  switch (event.name) {
    case 'message.add': {
      const p = event.payload;
      const match = (c: BffChat) => sameChat(c, { ...p.recipient, channel_id: p.channel_id });
      if (!has(data, match)) return { data, placed: false };
      const at = new Date(p.timestamp).toISOString();
      const last: MessagePreview = {
        message_id: p.message_id,
        direction: p.direction,
        status: p.status as MessagePreview['status'],
        kind: p.attachment ? 'attachment' : p.template ? 'template' : 'text',
        text: p.text ?? null,
        attachment_name: p.attachment?.name ?? null,
        created_at: at,
        deleted: false,
      };
      return { placed: true, data: mapChats(data, (c) => (match(c) && Date.parse(at) >= Date.parse(c.last_activity_at) ? { ...c, last_message: last, last_activity_at: at } : c)) };
    }
    case 'chat.unanswered_update': {
      const p = event.payload;
      const match = (c: BffChat) => c.chat_ref === p.chat_ref;
      if (!has(data, match)) return { data, placed: false };
      if (!isNewer(p.chat_ref, event.position)) return { data, placed: true };
      return { placed: true, data: mapChats(data, (c) => (match(c) && c.unanswered_count !== p.unanswered_count ? { ...c, unanswered_count: p.unanswered_count } : c)) };
    }
    case 'message.status_update': {
      const { message_id: id, status } = event.payload;
      if (!id) return { data, placed: true };
      // The first status of a message no row shows: a send (here or elsewhere) that is now some chat's last message.
      // A refused send may have no status before `failed`, and the list flags it: that is read again too.
      const shown = has(data, (c) => c.last_message?.message_id === id);
      if (!shown) return { data, placed: status === 'delivered' || status === 'read' };
      return {
        placed: true,
        data: updateLast(data, id, (m) => {
          const next = laterStatus(m.status, status);
          return next === m.status || next === 'sending' ? m : { ...m, status: next };
        }),
      };
    }
    case 'message.edit': {
      const p = event.payload;
      if (!('text' in p)) return { data, placed: true };
      return { placed: true, data: updateLast(data, p.message_id, (m) => ({ ...m, text: p.text ?? null })) };
    }
    case 'message.delete':
      return { placed: true, data: updateLast(data, event.payload.message_id, (m) => (m.deleted ? m : { ...m, deleted: true })) };
    default:
      return { data, placed: true };
  }
}
