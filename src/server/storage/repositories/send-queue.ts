import { sql, type Kysely, type Selectable } from 'kysely';
import type { ClaimedSend, SendQueue } from '../../core/messages/ports.ts';
import { queueDeliveries, tellRecorded, type EventsRecorded, type RecordedCounts } from './webhook-fan-out.ts';
import type { ChannelsTable, ChatsTable, DatabaseSchema, MessagesTable } from '../schema.ts';
import { toChannelRecord } from './channels.ts';
import { toChatRecord } from './chats.ts';
import { insertValues, toMessageRecord } from './messages.ts';
import { anyUuid, jsonRows } from './json-rows.ts';
import { fixedStatement } from './fixed-statement.ts';

type Db = Kysely<DatabaseSchema>;

const chatColumns = {
  ord: 'int',
  id: 'uuid',
  account_id: 'uuid',
  channel_id: 'uuid',
  chat_type: 'text',
  chat_id: 'text',
  name: 'text',
  reset: 'boolean',
  last_message_at: 'timestamptz',
};
const answerColumns = {
  id: 'uuid',
  chat_ref: 'uuid',
  status: 'text',
  reason: 'text',
  messenger_message_id: 'text',
  sent_at: 'timestamptz',
  delivered_at: 'timestamptz',
};

/**
 * The accept statement for messages of these columns (every insert of messages writes the same ones), one
 * statement, so no transaction: the chats are upserted (an existing chat gets the sends' effect), the messages
 * take their chats' ids from the upsert and their `seq` in the order given (the messages as one JSON document,
 * read back as rows of the messages table, so every column gets its own type).
 */
const acceptStatements = new Map<string, ReturnType<typeof fixedStatement>>();
function acceptStatement(names: string[]): ReturnType<typeof fixedStatement> {
  const key = names.join(',');
  let statement = acceptStatements.get(key);
  if (statement) return statement;
  const columns = sql.join(names.map((c) => sql.ref(c)));
  statement = fixedStatement(
    (chats, messages) => sql`
      with chat_input as (select * from ${jsonRows('c', chatColumns, chats)}),
      upserted as (
        insert into chats as c (id, account_id, channel_id, chat_type, chat_id, name, unanswered, last_message_at, created_at)
        select id, account_id, channel_id, chat_type, chat_id, name, 0, last_message_at, last_message_at from chat_input order by ord
        on conflict (channel_id, chat_type, chat_id) where chat_id is not null do update set
          name = coalesce(excluded.name, c.name),
          unanswered = case when (
            select i.reset from chat_input i
            where i.channel_id = excluded.channel_id and i.chat_type = excluded.chat_type and i.chat_id = excluded.chat_id
          ) then 0 else c.unanswered end,
          last_message_at = excluded.last_message_at
        returning c.id, c.channel_id, c.chat_type, c.chat_id),
      message_input as (
        select e.ord, e.value->>'chat_type' as to_type, e.value->>'chat_id' as to_id, m.*
        from jsonb_array_elements(${messages}::jsonb) with ordinality as e (value, ord)
        cross join lateral jsonb_populate_record(null::messages, e.value->'message') as m)
      insert into messages (${columns}, chat_ref)
      select ${sql.join(names.map((c) => sql.ref(`m.${c}`)))}, u.id
      from message_input m join upserted u on u.channel_id = m.channel_id and u.chat_type = m.to_type and u.chat_id = m.to_id
      order by m.ord`,
  );
  acceptStatements.set(key, statement);
  return statement;
}

/**
 * Where a process's next send claim goes on from: the chat its last claim took last. A process keeps one
 * for all its repositories (a claim inside a transaction goes on from the same place).
 */
export interface SendCursor {
  chatRef: string;
}

/** Below every chat's id: the cursor of a sender that has claimed nothing yet. */
export const newSendCursor = (): SendCursor => ({ chatRef: '00000000-0000-0000-0000-000000000000' });

/**
 * Chats' due heads, leased, with their chats and channels (see `claim`): a skip scan of the unsent index that
 * goes round the chats in id order from `after` (once past the last chat it starts again from the first, up to
 * `after` itself), and stops as soon as it has `limit` due heads. The scan starts from a placeholder row (no
 * message) at `after`; each step takes the head of the next chat, or, at the end, wraps to the first (the
 * branches of `union all` run in order, so its `limit 1` takes the wrap only when no next chat is left). A head
 * through a channel that runs as a session is due only to the session's owner (`owner`, its live lease): a scalar
 * subquery per head, which the planner keeps as a filter, so that the heads are still taken in the scan's order.
 * Such a head claimed before its owner took the session (`held_since`) was claimed by a former owner, whose
 * connection is gone: it is due again at once, not when that claim lapses (its claim time is its lease's end less
 * `leaseSeconds`). The row is taken only if its lease is still the one the scan saw, so that of two claims at
 * once only the first gets it.
 *
 * The heads of a claim mostly go through one channel: its row comes as JSON with the first head of the channel
 * only (`channel_first`), and the others take it from there; within one statement every head sees the channel in
 * the same state. Built and sent with every head, the channel's row was most of what a claim returned.
 */
/**
 * Whether a head through a paced channel (a personal number with a `channel_pacing` row, pacing on) may be claimed:
 * only once the channel's gap is over, and only the channel's oldest due send, so that its sends leave one at a time
 * in the order they were accepted, except a reply to a customer who wrote, which never queues behind sends to new
 * chats (src/server/core/pacing). Any other channel's heads pass with one probe of the pacing table's key. (`offset 0`
 * keeps the customer's-message check a probe per head: without it the planner may hash every inbound message.)
 */
const pacedTurn = (heads: ReturnType<typeof sql>, now: unknown) => sql`not exists (
  select 1 from channel_pacing p where p.channel_id = ${heads}.channel_id and coalesce((p.overrides->>'enabled')::boolean, true) and (
    p.next_send_at > ${now}
    or (${heads}.id <> (
          select o.id from messages o where o.channel_id = ${heads}.channel_id and o.status = 'accepted' and o.request_id is not null
            and o.direction = 'outbound' and (o.send_after is null or o.send_after <= ${now}) order by o.seq limit 1)
        and not exists (
          select 1 from messages i where i.chat_ref = ${heads}.chat_ref and i.messenger_message_id is not null and i.direction = 'inbound' offset 0))))`;

export const claimQuery = (after: unknown, now: unknown, limit: unknown, leaseSeconds: unknown, owner: unknown) =>
  sql<Selectable<MessagesTable> & { chat: Selectable<ChatsTable>; channel_first: boolean; channel: string | null }>`
    with recursive heads as (
      select ${after}::uuid as chat_ref, null::uuid as id, null::timestamptz as send_after, null::timestamptz as send_lease_until, false as wrapped, null::uuid as channel_id
      union all
      select n.* from heads h cross join lateral (
        (select m.chat_ref, m.id, m.send_after, m.send_lease_until, h.wrapped, m.channel_id from messages m
         where m.status = 'accepted' and m.request_id is not null and m.chat_ref > h.chat_ref and (not h.wrapped or m.chat_ref <= ${after}::uuid)
         order by m.chat_ref, m.seq limit 1)
        union all
        (select m.chat_ref, m.id, m.send_after, m.send_lease_until, true, m.channel_id from messages m
         where not h.wrapped and m.status = 'accepted' and m.request_id is not null and m.chat_ref <= ${after}::uuid
         order by m.chat_ref, m.seq limit 1)
        limit 1) n),
    due as (
      select id, send_lease_until from heads
      where id is not null and (send_after is null or send_after <= ${now})
        and (send_lease_until is null or send_lease_until <= now() or exists (
          select 1 from sessions s where s.channel_id = heads.channel_id and s.owner = ${owner}::text
            and s.held_since > heads.send_lease_until - make_interval(secs => ${leaseSeconds})))
        and coalesce((
          select coalesce(s.owner = ${owner}::text and s.lease_until > now(), false)
          from sessions s where s.channel_id = heads.channel_id), true)
        and ${pacedTurn(sql`heads`, now)}
      limit ${limit}),
    claimed as (
      update messages m set send_lease_until = now() + make_interval(secs => ${leaseSeconds}), send_attempts = m.send_attempts + 1
      from due, chats c
      where m.id = due.id and c.id = m.chat_ref and m.status = 'accepted' and m.send_lease_until is not distinct from due.send_lease_until
      returning m.*, to_jsonb(c) as chat),
    firsts as (select claimed.*, row_number() over (partition by claimed.channel_id) = 1 as channel_first from claimed)
    select firsts.*, case when channel_first then
        (select to_jsonb(ch)::text from channels ch where ch.id = firsts.channel_id and ch.deleted_at is null) end as channel
    from firsts`;
const claimStatement = fixedStatement(claimQuery);

/**
 * Where the next claim goes on from: the last chat this one took, in the order the scan went round (a chat at
 * or before `after` was reached after wrapping, so it came later than any chat beyond `after`).
 */
function cursorAfter(after: string, chatRefs: string[]): string {
  const wrapped = chatRefs.filter((ref) => ref <= after);
  const last = (refs: string[]) => refs.reduce((a, b) => (a > b ? a : b));
  if (wrapped.length > 0) return last(wrapped);
  return chatRefs.length > 0 ? last(chatRefs) : after;
}

/**
 * The answers of a batch: each message's answered state, and its status events with their webhook deliveries.
 * Events take their positions in the order given; only those of messages this statement changed are kept.
 */
const settleStatement = fixedStatement(
  (answers, ids, events) => sql<RecordedCounts>`
    with answers as (select * from ${jsonRows('a', answerColumns, answers)}),
    changed as (
      update messages m set chat_ref = a.chat_ref, status = a.status, reason = a.reason,
        messenger_message_id = a.messenger_message_id, sent_at = a.sent_at, delivered_at = a.delivered_at, send_lease_until = null
      from answers a where m.id = ${anyUuid(ids)} and m.id = a.id and m.status = 'accepted'
      returning m.id),
    recorded as (
      insert into events (id, account_id, name, ordering_key, payload, created_at)
      select e.id, e.account_id, e.name, e.ordering_key, e.payload, e.created_at
      from jsonb_array_elements(${events}::jsonb) with ordinality as x (value, ord)
      cross join lateral jsonb_populate_record(null::events, x.value->'event') as e
      where (x.value->>'message_id')::uuid in (select id from changed)
      order by x.ord
      returning *)
    ${queueDeliveries()}`,
);

/**
 * `recorded` hears of recorded answers, before their transaction commits. `owner`: this process's mark on the session
 * leases it holds; a send through a channel that runs as a session (a personal account's connection) is claimed only
 * by the process holding that session, where its connection is.
 */
export function sendQueueRepository(db: Db, recorded?: EventsRecorded, cursor: SendCursor = newSendCursor(), owner: string | null = null): SendQueue {
  return {
    async acceptToKnownChats(chats, messages) {
      if (messages.length === 0) return;
      // Chats in key order, so two statements creating or updating the same chats lock them in one order.
      const ordered = [...chats].sort((a, b) => (a.channelId + a.chatType + a.chatId < b.channelId + b.chatType + b.chatId ? -1 : 1));
      const chatRows = ordered.map((c, ord) => ({
        ord,
        id: c.newId,
        account_id: c.accountId,
        channel_id: c.channelId,
        chat_type: c.chatType,
        chat_id: c.chatId,
        name: c.name,
        reset: c.resetUnanswered,
        last_message_at: c.lastMessageAt,
      }));
      // The messages as one JSON document, read back as rows of the messages table: every column gets its own type.
      const messageRows = messages.map(({ message, chatType, chatId }) => {
        const { attachment, template, keyboard } = message;
        // The chat comes from the upsert, not from here.
        const { chat_ref: _none, ...values } = insertValues({ ...message, chatRef: '' });
        return { chat_type: chatType, chat_id: chatId, message: { ...values, attachment, template, keyboard } };
      });
      // The columns a stored message has (as every other insert of messages writes them), less its chat.
      await acceptStatement(Object.keys(messageRows[0]!.message))(db, JSON.stringify(chatRows), JSON.stringify(messageRows));
    },

    async claim({ limit, leaseSeconds, now }) {
      // Each chat's head by a skip scan of the unsent index (one probe per chat, however many wait behind the
      // heads), going round the chats from where the last claim stopped: every chat gets its turn, and a
      // claim reads as many heads as it takes (plus those leased or waiting for a retry that it passes),
      // however many chats have sends waiting. The conditions are checked again on the row being updated,
      // so of two senders claiming the same head at once only the first gets it.
      const { rows } = await claimStatement(db, cursor.chatRef, now, limit, leaseSeconds, owner);
      cursor.chatRef = cursorAfter(cursor.chatRef, rows.map((r) => r.chat_ref));
      // Each channel's row came with its first head only (none: the channel is deleted or gone), decoded once.
      const channels = new Map<string, ClaimedSend['channel']>();
      for (const r of rows) {
        if (!r.channel_first) continue;
        const c = r.channel === null ? null : (JSON.parse(r.channel) as Selectable<ChannelsTable>);
        channels.set(r.channel_id, c ? toChannelRecord({ ...c, created_at: new Date(c.created_at), updated_at: new Date(c.updated_at) }) : undefined);
      }
      return rows
        .sort((a, b) => Number(a.seq) - Number(b.seq))
        .map(
          (r): ClaimedSend => ({
            message: toMessageRecord(r),
            attempt: r.send_attempts,
            chat: toChatRecord({ ...r.chat, created_at: new Date(r.chat.created_at), last_message_at: r.chat.last_message_at && new Date(r.chat.last_message_at) }),
            channel: channels.get(r.channel_id),
          }),
        );
    },

    async recordAnswers(answers) {
      if (answers.length === 0) return;
      // Rows in id order, so two statements settling overlapping messages lock them in one order.
      const rows = [...answers]
        .sort((a, b) => (a.message.id < b.message.id ? -1 : 1))
        .map(({ message: m }) => ({
          id: m.id,
          chat_ref: m.chatRef,
          status: m.status,
          reason: m.reason,
          messenger_message_id: m.messengerMessageId,
          sent_at: m.sentAt,
          delivered_at: m.deliveredAt,
        }));
      const events = answers.flatMap(({ message, events }) =>
        events.map((e) => ({
          message_id: message.id,
          event: { id: e.id, account_id: e.accountId, name: e.name, ordering_key: e.orderingKey, payload: e.payload, created_at: e.createdAt },
        })),
      );
      const counts = await settleStatement(db, JSON.stringify(rows), rows.map((r) => r.id), JSON.stringify(events));
      tellRecorded(counts.rows, recorded);
    },

    async retryLater(items) {
      if (items.length === 0) return;
      const rows = items.map((i) => ({ id: i.messageId, at: i.at }));
      await sql`
        update messages m set send_after = v.at, send_lease_until = null
        from ${jsonRows('v', { id: 'uuid', at: 'timestamptz' }, rows)}
        where m.id = ${anyUuid(rows.map((r) => r.id))} and m.id = v.id and m.status = 'accepted'`.execute(db);
    },
  };
}
