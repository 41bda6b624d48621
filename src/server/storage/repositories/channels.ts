import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChannelState, Tier, Transport } from '../../../contract/channels.ts';
import type { ChannelRecord, ChannelRepository } from '../../core/channels/ports.ts';
import type { ChannelsTable, DatabaseSchema } from '../schema.ts';
import { fixedStatement } from './fixed-statement.ts';
import { anyUuid } from './json-rows.ts';

export const toChannelRecord = (r: Selectable<ChannelsTable>): ChannelRecord => ({
  id: r.id,
  accountId: r.account_id,
  transport: r.transport as Transport,
  state: { status: r.status, reason: r.reason } as ChannelState,
  phone: r.phone,
  username: r.username,
  messengerId: r.messenger_id,
  name: r.name,
  authUrl: r.auth_url,
  tier: r.tier as Tier | null,
  paid: r.paid,
  credentials: r.credentials,
  qr: r.qr && { payload: r.qr.payload, issuedAt: new Date(r.qr.issuedAt), shown: r.qr.shown },
  pairing: r.pairing,
  messengerAccountId: r.messenger_account_id ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const columns = (c: ChannelRecord) => ({
  transport: c.transport,
  status: c.state.status,
  reason: c.state.reason,
  phone: c.phone,
  username: c.username,
  messenger_id: c.messengerId,
  name: c.name,
  auth_url: c.authUrl,
  tier: c.tier,
  paid: c.paid,
  credentials: c.credentials,
  qr: c.qr && JSON.stringify({ payload: c.qr.payload, issuedAt: c.qr.issuedAt.toISOString(), shown: c.qr.shown }),
  pairing: c.pairing && JSON.stringify(c.pairing),
  updated_at: c.updatedAt,
  // Written by a connection only (a record read back leaves it unset): other updates of the channel leave the
  // refresh's own writes alone.
  ...(c.hookFingerprint !== undefined ? { hook_fingerprint: c.hookFingerprint, hook_lease_until: null } : {}),
  ...(c.messengerAccountId !== undefined ? { messenger_account_id: c.messengerAccountId } : {}),
});

const channelsStatement = fixedStatement((ids) => sql<Selectable<ChannelsTable>>`select * from channels where deleted_at is null and id = ${anyUuid(ids)}`);

/** Visible channels by account and id, in the order asked (undefined where none, or of another account). */
export async function channelsByKey(db: Kysely<DatabaseSchema>, keys: readonly { accountId: string; id: string }[]): Promise<(ChannelRecord | undefined)[]> {
  const { rows } = await channelsStatement(db, [...new Set(keys.map((k) => k.id))]);
  const byId = new Map(rows.map((r) => [r.id, toChannelRecord(r)]));
  return keys.map((k) => {
    const channel = byId.get(k.id);
    return channel?.accountId === k.accountId ? channel : undefined;
  });
}

/** The advisory lock namespace under which a messenger account is given to one channel at a time. */
const MESSENGER_LOCK = 0x6d736772;

export function channelRepository(db: Kysely<DatabaseSchema>): ChannelRepository {
  const visible = () => db.selectFrom('channels').selectAll().where('deleted_at', 'is', null);
  return {
    async insert(c) {
      await db.insertInto('channels').values({ id: c.id, account_id: c.accountId, created_at: c.createdAt, ...columns(c) }).execute();
    },
    async get(accountId, id) {
      const row = await visible().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && toChannelRecord(row);
    },
    async getForUpdate(accountId, id) {
      const row = await visible().where('id', '=', id).where('account_id', '=', accountId).forUpdate().executeTakeFirst();
      return row && toChannelRecord(row);
    },
    async getByIdForUpdate(id) {
      const row = await visible().where('id', '=', id).forUpdate().executeTakeFirst();
      return row && toChannelRecord(row);
    },
    async getById(id) {
      const row = await visible().where('id', '=', id).executeTakeFirst();
      return row && toChannelRecord(row);
    },
    async listByMessengerId(transport, messengerId) {
      // Through channels_messenger_id_idx.
      const rows = await visible()
        .where('transport', '=', transport)
        .where('messenger_id', '=', messengerId)
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toChannelRecord);
    },
    async lockMessengerId(transport, messengerId) {
      await sql`select pg_advisory_xact_lock(${MESSENGER_LOCK}, hashtext(${`${transport}:${messengerId}`}))`.execute(db);
    },
    async listByMessengerAccountId(transport, messengerAccountId) {
      // Through channels_messenger_account_idx.
      const rows = await visible()
        .where('transport', '=', transport)
        .where('messenger_account_id', '=', messengerAccountId)
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toChannelRecord);
    },
    async list(accountId) {
      const rows = await visible().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toChannelRecord);
    },
    async update(c) {
      await db.updateTable('channels').set(columns(c)).where('id', '=', c.id).where('account_id', '=', c.accountId).execute();
    },
    async remove(accountId, id) {
      await db.deleteFrom('channels').where('id', '=', id).where('account_id', '=', accountId).execute();
    },
    async retire(accountId, id, at) {
      await db.updateTable('channels').set({ deleted_at: at, updated_at: at }).where('id', '=', id).where('account_id', '=', accountId).execute();
    },
    async replaceCredentials(id, expected, next) {
      // One statement: a concurrent writer holding the row is waited for, and the condition is checked on what it left.
      const stored = await db
        .updateTable('channels')
        .set({ credentials: next })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .where('credentials', '=', expected)
        .executeTakeFirst();
      return Number(stored.numUpdatedRows) > 0;
    },
  };
}
