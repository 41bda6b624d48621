import { sql } from 'kysely';
import type { Database } from '../storage/database.ts';

/**
 * Watching a long-lived session move between gateway processes, straight in the database all of them share: who
 * holds its lease, and how long after a moment (a kill, a SIGTERM) another process held it.
 */

/** The process holding the session's live lease now (null: nobody, or a lapsed lease). */
export async function liveOwner(db: Database['db'], channelId: string): Promise<string | null> {
  const { rows } = await sql<{ owner: string | null }>`
    select owner from sessions where channel_id = ${channelId} and owner is not null and lease_until > now()`.execute(db);
  return rows[0]?.owner ?? null;
}

/**
 * Waits until a live lease on the session is held by another process than `previous`, polling every 50 ms from
 * `since` (a `performance.now()` reading); answers the new owner and the milliseconds it took.
 */
export async function nextOwner(db: Database['db'], channelId: string, previous: string | null, since: number, timeoutMs = 30_000): Promise<{ owner: string; ms: number }> {
  for (;;) {
    const owner = await liveOwner(db, channelId);
    const ms = performance.now() - since;
    if (owner !== null && owner !== previous) return { owner, ms };
    if (ms > timeoutMs) throw new Error(`nobody took session ${channelId} over within ${timeoutMs} ms (held by ${owner ?? 'nobody'})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How often each text was recorded in the messages table, by direction. */
export async function recordedTexts(db: Database['db'], direction: 'inbound' | 'outbound', texts: readonly string[]): Promise<Record<string, number>> {
  const { rows } = await sql<{ text: string; n: number }>`
    select text, count(*)::int as n from messages where direction = ${direction} and text = any(${[...texts]}::text[]) group by text`.execute(db);
  return Object.fromEntries(texts.map((text) => [text, rows.find((r) => r.text === text)?.n ?? 0]));
}

/** The statuses of the sends with these request ids, by request id. */
export async function sendStatuses(db: Database['db'], requestIds: readonly string[]): Promise<Record<string, string>> {
  const { rows } = await sql<{ request_id: string; status: string }>`
    select request_id::text, status from messages where request_id = any(${[...requestIds]}::uuid[])`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.request_id, r.status]));
}
