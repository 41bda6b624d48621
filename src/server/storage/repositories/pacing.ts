import { sql, type Kysely, type Selectable } from 'kysely';
import type { HoldReason, HoldScope, PacingRepository, PacingState, SendKind, SlowReason } from '../../core/pacing/ports.ts';
import type { PacingProfile } from '../../core/pacing/profile.ts';
import type { ChannelPacingTable, DatabaseSchema } from '../schema.ts';

type Db = Kysely<DatabaseSchema>;

const toState = (r: Selectable<ChannelPacingTable>): PacingState => ({
  channelId: r.channel_id,
  overrides: (r.overrides as Partial<PacingProfile> | null) ?? null,
  linkedAt: r.linked_at,
  day: r.day,
  sentToday: r.sent_today,
  firstContactsToday: r.first_contacts_today,
  nextSendAt: r.next_send_at,
  burst: r.burst,
  gapMs: r.gap_ms,
  slowUntil: r.slow_until,
  slowReason: r.slow_reason as SlowReason | null,
  version: r.version,
});

const values = (s: PacingState) => ({
  channel_id: s.channelId,
  overrides: s.overrides === null ? null : JSON.stringify(s.overrides),
  linked_at: s.linkedAt,
  day: s.day,
  sent_today: s.sentToday,
  first_contacts_today: s.firstContactsToday,
  next_send_at: s.nextSendAt,
  burst: s.burst,
  gap_ms: s.gapMs,
  slow_until: s.slowUntil,
  slow_reason: s.slowReason,
});

/** Chats where the customer never wrote; chats where nothing was ever sent or received (the messenger numbered nothing). */
const scopeFilter = (scope: HoldScope) => {
  // `offset 0`: a probe of the chat's numbered messages per send, never a hash of every message's.
  if (scope === 'cold') return sql`not exists (select 1 from messages i where i.chat_ref = m.chat_ref and i.messenger_message_id is not null and i.direction = 'inbound' offset 0)`;
  if (scope === 'first_contacts') return sql`not exists (select 1 from messages i where i.chat_ref = m.chat_ref and i.messenger_message_id is not null offset 0)`;
  return sql`true`;
};

/** Pacing state of personal channels (`channel_pacing`) and the holds of their sends (`messages.hold_reason`). */
export function pacingRepository(db: Db): PacingRepository {
  return {
    async get(channelId) {
      const row = await db.selectFrom('channel_pacing').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
      return row && toState(row);
    },

    async save(state, expected) {
      if (expected === undefined) {
        const inserted = await db
          .insertInto('channel_pacing')
          .values({ ...values(state), version: 1 })
          .onConflict((oc) => oc.column('channel_id').doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
      }
      const updated = await db
        .updateTable('channel_pacing')
        .set({ ...values(state), version: expected + 1 })
        .where('channel_id', '=', state.channelId)
        .where('version', '=', expected)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    async setOverrides(channelId, overrides, linkedAt) {
      const json = overrides === null ? null : JSON.stringify(overrides);
      const row = await db
        .insertInto('channel_pacing')
        .values({ channel_id: channelId, overrides: json, linked_at: linkedAt, day: '', sent_today: 0, first_contacts_today: 0, burst: 0, gap_ms: 0, version: 1 })
        .onConflict((oc) => oc.column('channel_id').doUpdateSet({ overrides: json, version: sql`channel_pacing.version + 1` }))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toState(row);
    },

    async hold({ channelId, messageId, scope, until, reason, now, maxHoldMs }) {
      const others = scope === 'one' ? sql`false` : sql`(m.send_after is null or m.send_after <= ${now})
        and (m.send_lease_until is null or m.send_lease_until <= now()) and ${scopeFilter(scope)}`;
      await sql`
        update messages m set
          send_after = least(${until}::timestamptz, m.created_at + make_interval(secs => ${maxHoldMs / 1000})),
          hold_reason = ${reason},
          send_lease_until = case when m.id = ${messageId}::uuid then null else m.send_lease_until end,
          send_attempts = case when m.id = ${messageId}::uuid then greatest(m.send_attempts - 1, 0) else m.send_attempts end
        where m.channel_id = ${channelId}::uuid and m.status = 'accepted' and m.request_id is not null and m.direction = 'outbound'
          and (m.id = ${messageId}::uuid or (${others}))`.execute(db);
    },

    async kindOf(chatRef): Promise<SendKind> {
      const { rows } = await sql<{ wrote: boolean; known: boolean }>`
        select exists (select 1 from messages i where i.chat_ref = ${chatRef}::uuid and i.messenger_message_id is not null and i.direction = 'inbound') as wrote,
               exists (select 1 from messages i where i.chat_ref = ${chatRef}::uuid and i.messenger_message_id is not null) as known`.execute(db);
      const r = rows[0]!;
      return r.wrote ? 'reply' : r.known ? 'follow_up' : 'first_contact';
    },

    async queue(channelId, now) {
      const { rows } = await sql<{ waiting: string; held: string }>`
        select count(*) as waiting, count(*) filter (where m.hold_reason is not null and m.send_after > ${now}) as held
        from messages m where m.channel_id = ${channelId}::uuid and m.status = 'accepted' and m.request_id is not null and m.direction = 'outbound'`.execute(db);
      return { waiting: Number(rows[0]?.waiting ?? 0), held: Number(rows[0]?.held ?? 0) };
    },

    async heldSends(channelId, now, limit) {
      const rows = await db
        .selectFrom('messages')
        .select(['request_id', 'hold_reason', 'send_after'])
        .where('channel_id', '=', channelId)
        .where('status', '=', 'accepted')
        .where('request_id', 'is not', null)
        .where('direction', '=', 'outbound')
        .where('hold_reason', 'is not', null)
        .where('send_after', '>', now)
        .orderBy('seq')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ requestId: r.request_id!, reason: r.hold_reason as HoldReason, until: new Date(r.send_after!) }));
    },

    async figures(now) {
      const { rows } = await sql<Selectable<ChannelPacingTable> & { transport: string; held: string }>`
        select p.*, ch.transport,
          (select count(*) from messages m where m.channel_id = p.channel_id and m.status = 'accepted' and m.request_id is not null and m.direction = 'outbound'
             and m.hold_reason is not null and m.send_after > ${now}) as held
        from channel_pacing p join channels ch on ch.id = p.channel_id where ch.deleted_at is null`.execute(db);
      return rows.map((r) => ({ state: toState(r), transport: r.transport, held: Number(r.held) }));
    },
  };
}
