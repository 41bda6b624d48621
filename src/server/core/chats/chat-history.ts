import { messagePageLimits, type MessagePage, type MessagesQuery } from '../../../contract/bff-chats.ts';
import { AppError, validationError } from '../errors.ts';
import type { Store } from '../ports.ts';
import { messageCursor, parseMessageCursor } from './cursor.ts';
import type { HistoryRow } from './ports.ts';
import { toBffMessage } from './views.ts';
import { captionedFileNumber } from '../messages/caption-number.ts';

/**
 * Which rows of a page are the captions of which file rows: caption id → file id. The file is on the page, or is
 * the row just before it (`before`), so that words opening a page still name their file on the page before.
 */
function captionsOf(rows: HistoryRow[], before: HistoryRow | undefined): Map<string, string> {
  const files = before ? [before, ...rows] : rows;
  const byMessengerId = new Map(files.flatMap((r) => (r.messengerMessageId && r.attachment ? [[r.messengerMessageId, r.id] as const] : [])));
  const captions = new Map<string, string>();
  for (const row of rows) {
    const number = captionedFileNumber(row.messengerMessageId);
    const file = number === null ? undefined : byMessengerId.get(number);
    if (file) captions.set(row.id, file);
  }
  return captions;
}

interface Window {
  /** Oldest first. */
  rows: HistoryRow[];
  /** The row just before the first, when it was read along (to say whether there is an older page). */
  before?: HistoryRow | undefined;
  hasOlder: boolean;
  hasNewer: boolean;
}

/**
 * One page of a chat's history, oldest first: the newest messages, those before or after a cursor, or a
 * window around one message (half before it, the message and the rest after it). The caller has checked that
 * the reader may see the chat.
 */
export async function chatHistory({ store }: { store: Store }, accountId: string, chatRef: string, query: MessagesQuery): Promise<MessagePage> {
  const modes = (['before', 'after', 'around'] as const).filter((m) => query[m] !== undefined);
  if (modes.length > 1) throw validationError(modes.map((field) => ({ field, message: 'only one of before, after, around may be given' })));
  const limit = Math.min(query.limit ?? messagePageLimits.default, messagePageLimits.max);
  const base = { accountId, chatRef };
  const has = (op: '<' | '>', row: HistoryRow | undefined) => (row ? store.messages.historyHas(accountId, chatRef, { op, seq: row.seq }) : false);

  let window: Window;
  if (query.around !== undefined) {
    const seq = await store.messages.historySeq(accountId, chatRef, query.around);
    if (seq === undefined) throw new AppError('MESSAGE_NOT_FOUND', 'Message not found', { message_id: query.around });
    const olderWanted = Math.floor((limit - 1) / 2);
    const newerWanted = limit - olderWanted;
    const [older, newer] = await Promise.all([
      olderWanted > 0 ? store.messages.historyPage({ ...base, bound: { op: '<', seq }, order: 'desc', limit: olderWanted + 1 }) : Promise.resolve([]),
      store.messages.historyPage({ ...base, bound: { op: '>=', seq }, order: 'asc', limit: newerWanted + 1 }),
    ]);
    const rows = [...older.slice(0, olderWanted).reverse(), ...newer.slice(0, newerWanted)];
    window = {
      rows,
      before: older[olderWanted],
      hasOlder: olderWanted > 0 ? older.length > olderWanted : await has('<', rows[0]),
      hasNewer: newer.length > newerWanted,
    };
  } else if (query.after !== undefined) {
    const seq = parseMessageCursor(query.after, 'after');
    const rows = await store.messages.historyPage({ ...base, bound: { op: '>', seq }, order: 'asc', limit: limit + 1 });
    const page = rows.slice(0, limit);
    window = { rows: page, hasOlder: await has('<', page[0]), hasNewer: rows.length > limit };
  } else {
    const seq = query.before === undefined ? undefined : parseMessageCursor(query.before, 'before');
    const rows = await store.messages.historyPage({ ...base, bound: seq === undefined ? undefined : { op: '<', seq }, order: 'desc', limit: limit + 1 });
    const page = rows.slice(0, limit).reverse();
    window = { rows: page, before: rows[limit], hasOlder: rows.length > limit, hasNewer: seq === undefined ? false : await has('>', page.at(-1)) };
  }

  const first = window.rows[0];
  const last = window.rows.at(-1);
  const reactions = await store.reactions.ofMessages(window.rows.map((r) => r.id));
  const captions = captionsOf(window.rows, window.before);
  return {
    messages: window.rows.map((row) => {
      const shown = toBffMessage(row);
      const of = reactions.get(row.id);
      const captionOf = captions.get(row.id);
      return { ...shown, ...(of ? { reactions: of } : {}), ...(captionOf ? { caption_of: captionOf } : {}) };
    }),
    older_cursor: window.hasOlder && first ? messageCursor(first.seq) : null,
    newer_cursor: window.hasNewer && last ? messageCursor(last.seq) : null,
  };
}
