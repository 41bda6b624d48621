import { sql, type Kysely } from 'kysely';
import type { HeldSession, SessionFenceCheck, SessionLeases, SessionStateRepository } from '../../core/sessions/ports.ts';
import { SESSIONS_RELEASED } from '../notifications.ts';
import type { DatabaseSchema } from '../schema.ts';
import { jsonRows } from './json-rows.ts';

type Db = Kysely<DatabaseSchema>;

interface HeldRow {
  channel_id: string;
  transport: string;
  generation: string | number;
  logout_requested: boolean;
}

const toHeld = (r: HeldRow): HeldSession => ({ channelId: r.channel_id, transport: r.transport, generation: Number(r.generation), logout: r.logout_requested });
const leaseFor = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

/**
 * The sessions' leases. Lease times are the database's (`now()`), one clock for every process. Each statement checks
 * what it relies on in the row it changes, and the rows it takes are locked as they are picked (those another process
 * is taking are passed by), so that a session is never given to two processes.
 */
export function sessionLeaseRepository(db: Db): SessionLeases {
  return {
    async register(channelId, transport) {
      // Generations start from the clock, so that those of a session registered again (a reinit) never repeat the ones
      // of its former registration: a fence of the former never matches the new one.
      await sql`
        insert into sessions (channel_id, transport, owner, lease_until, generation)
        values (${channelId}, ${transport}, null, null, (extract(epoch from clock_timestamp()) * 1000)::bigint)
        on conflict (channel_id) do nothing`.execute(db);
    },
    async remove(channelId) {
      await db.deleteFrom('sessions').where('channel_id', '=', channelId).execute();
    },
    async acquire({ owner, transports, leaseMs, limit }) {
      if (transports.length === 0 || limit <= 0) return [];
      const { rows } = await sql<HeldRow>`
        update sessions s set owner = ${owner}, lease_until = ${leaseFor(leaseMs)}, held_since = now(), generation = s.generation + 1
        where s.channel_id in (
          select f.channel_id from sessions f
          where f.transport = any(${[...transports]}::text[])
            and (f.owner is null or f.lease_until is null or f.lease_until <= now())
            and (f.logout_requested or exists (select 1 from channels c where c.id = f.channel_id and c.deleted_at is null))
          order by f.created_at, f.channel_id
          limit ${limit}
          for update of f skip locked)
        and (s.owner is null or s.lease_until is null or s.lease_until <= now())
        returning s.channel_id, s.transport, s.generation, s.logout_requested`.execute(db);
      return rows.map(toHeld);
    },
    async renew({ owner, leaseMs }) {
      const { rows } = await sql<HeldRow>`
        update sessions set lease_until = ${leaseFor(leaseMs)}
        where owner = ${owner}
        returning channel_id, transport, generation, logout_requested`.execute(db);
      return rows.map(toHeld);
    },
    async release(owner, channelIds) {
      if (channelIds.length === 0) return;
      await sql`
        update sessions set owner = null, lease_until = null
        where owner = ${owner} and channel_id = any(${[...channelIds]}::uuid[])`.execute(db);
      // After the commit: the other processes look at once rather than at their next round.
      await sql`select pg_notify(${SESSIONS_RELEASED}, ${owner})`.execute(db);
    },
    async releaseAll() {
      await db.updateTable('sessions').set({ owner: null, lease_until: null }).where('owner', 'is not', null).execute();
    },
    async requestLogout(channelId) {
      const { rows } = await sql<{ channel_id: string }>`
        update sessions set logout_requested = true where channel_id = ${channelId} returning channel_id`.execute(db);
      // Every runner looks at once: the holder logs out, or, when nobody holds it, one of them takes it to log out.
      if (rows.length > 0) await sql`select pg_notify(${SESSIONS_RELEASED}, ${'logout'})`.execute(db);
      return rows.length > 0;
    },
    async holder(channelId) {
      const row = await db.selectFrom('sessions').select(['owner', 'lease_until', 'generation']).where('channel_id', '=', channelId).executeTakeFirst();
      return row && { owner: row.owner, leaseUntil: row.lease_until, generation: Number(row.generation) };
    },
  };
}

/**
 * The fence as a statement of a store transaction: the session's row, if `fence` is still its lease, is held (`for
 * share`) until the transaction ends, as a state write holds it, so a takeover waits for the fenced write to commit.
 */
export function sessionFenceCheck(db: Db): SessionFenceCheck {
  return {
    async holds(fence) {
      const { rows } = await sql<{ held: number }>`
        select 1 as held from sessions
        where channel_id = ${fence.channelId} and owner = ${fence.owner} and generation = ${fence.generation}
        for share`.execute(db);
      return rows.length > 0;
    },
  };
}

/**
 * The sessions' sealed state. A write holds the session's row (`for share`) while it checks that the lease is still
 * the writer's, so a takeover waits for a write under way, and a write after a takeover changes nothing.
 */
export function sessionStateRepository(db: Db): SessionStateRepository {
  return {
    async read(channelId, keys) {
      if (keys.length === 0) return new Map();
      const rows = await db.selectFrom('session_state').select(['key', 'value']).where('channel_id', '=', channelId).where('key', 'in', [...keys]).execute();
      return new Map(rows.map((r) => [r.key, r.value]));
    },
    async write(fence, entries) {
      const stored = entries.filter((e) => e.value !== null).map((e) => ({ key: e.key, value: e.value }));
      const deleted = entries.filter((e) => e.value === null).map((e) => e.key);
      const { rows } = await sql<{ held: boolean }>`
        with held as (
          select channel_id from sessions
          where channel_id = ${fence.channelId} and owner = ${fence.owner} and generation = ${fence.generation}
          for share),
        removed as (
          delete from session_state
          where channel_id in (select channel_id from held) and key = any(${deleted}::text[])),
        written as (
          insert into session_state (channel_id, key, value)
          select h.channel_id, v.key, v.value from held h cross join ${jsonRows('v', { key: 'text', value: 'text' }, stored)}
          on conflict (channel_id, key) do update set value = excluded.value)
        select exists (select 1 from held) as held`.execute(db);
      return rows[0]?.held === true;
    },
    async end(fence) {
      await db.deleteFrom('sessions').where('channel_id', '=', fence.channelId).where('owner', '=', fence.owner).where('generation', '=', String(fence.generation) as never).execute();
    },
    async clear(fence) {
      const { rows } = await sql<{ held: boolean }>`
        with held as (
          select channel_id from sessions
          where channel_id = ${fence.channelId} and owner = ${fence.owner} and generation = ${fence.generation}
          for share),
        removed as (delete from session_state where channel_id in (select channel_id from held))
        select exists (select 1 from held) as held`.execute(db);
      return rows[0]?.held === true;
    },
  };
}
