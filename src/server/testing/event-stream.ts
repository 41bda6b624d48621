import type { Database } from '../storage/database.ts';

export interface StreamedEvent {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * Reads an account's event stream as tests see it between steps: `since()` returns the events recorded after
 * the previous call, sorted by name (events of one name stay in the order they were recorded), so that events of
 * one transaction compare independently of how they were interleaved.
 */
export function eventStream(database: Database, accountId: string) {
  const seen = new Set<string>();
  const read = async (): Promise<(StreamedEvent & { id: string })[]> => {
    const rows = await database.db
      .selectFrom('events')
      .select(['id', 'name', 'payload'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('position')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, payload: r.payload as Record<string, unknown> }));
  };
  return {
    async since(): Promise<StreamedEvent[]> {
      const fresh = (await read()).filter((e) => !seen.has(e.id));
      for (const e of fresh) seen.add(e.id);
      return fresh.map(({ name, payload }) => ({ name, payload })).sort((a, b) => a.name.localeCompare(b.name));
    },
    /** Names of the events since the previous call, sorted. */
    async names(): Promise<string[]> {
      return (await this.since()).map((e) => e.name);
    },
  };
}
