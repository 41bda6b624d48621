import { sql, type Kysely } from 'kysely';
import type { HookRegistrationRepository, OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import type { DatabaseSchema } from '../schema.ts';

interface ClaimedRow {
  id: string;
  credentials: string | null;
  messenger_id: string | null;
  hook_fingerprint: string | null;
}

/**
 * Fingerprints of what live bot channels registered with their platforms, and the claims of the processes refreshing
 * them. A connection stores its own with the channel (the channels repository).
 */
export function hookRegistrationRepository(db: Kysely<DatabaseSchema>): HookRegistrationRepository {
  return {
    /**
     * One statement: the rows are locked as they are picked, those another process has locked are passed by, and each
     * picked one is held (`hook_lease_until`) past this statement, so that a process sweeping at the same time or
     * shortly after takes others. In id order from `after`, so that a pass goes through the table once.
     */
    async claimOutdated({ transport, fingerprint, after, limit, now, leaseUntil }): Promise<OutdatedChannel[]> {
      const { rows } = await sql<ClaimedRow>`
        update channels set hook_lease_until = ${leaseUntil}
        where id in (
          select id from channels
          where transport = ${transport} and status = 'active' and deleted_at is null
            and hook_fingerprint is distinct from ${fingerprint}
            and (hook_lease_until is null or hook_lease_until <= ${now})
            ${after === null ? sql`` : sql`and id > ${after}`}
          order by id
          limit ${limit}
          for update skip locked)
        returning id, credentials, messenger_id, hook_fingerprint`.execute(db);
      return rows
        .map((r) => ({ id: r.id, credentials: r.credentials, messengerId: r.messenger_id, fingerprint: r.hook_fingerprint }))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async record(channel, fingerprint) {
      const stored = await db
        .updateTable('channels')
        .set({ hook_fingerprint: fingerprint, hook_lease_until: null })
        .where('id', '=', channel.id)
        .where('deleted_at', 'is', null)
        .where('hook_fingerprint', 'is not distinct from', channel.fingerprint)
        .where('messenger_id', 'is not distinct from', channel.messengerId)
        .executeTakeFirst();
      if (Number(stored.numUpdatedRows) > 0) return 'recorded';
      const now = await db.selectFrom('channels').select(['messenger_id', 'deleted_at']).where('id', '=', channel.id).executeTakeFirst();
      return !now || now.deleted_at !== null || now.messenger_id !== channel.messengerId ? 'left' : 'changed';
    },
  };
}
