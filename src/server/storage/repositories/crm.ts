import type { Kysely } from 'kysely';
import type { ChatType } from '../../../contract/channels.ts';
import type { ContactRepository } from '../../core/contacts/ports.ts';
import type { CrmUserRecord, CrmUserRepository } from '../../core/users/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

const toUser = (r: { id: string; name: string; phone: string | null }) => ({ id: r.id, name: r.name, phone: r.phone });

export function crmUserRepository(db: Kysely<DatabaseSchema>): CrmUserRepository {
  const insert = (accountId: string, users: CrmUserRecord[], at: Date, withPhone: boolean) =>
    db
      .insertInto('crm_users')
      .values(users.map((u) => ({ account_id: accountId, id: u.id, name: u.name, phone: u.phone ?? null, created_at: at, updated_at: at })))
      .onConflict((oc) =>
        oc.columns(['account_id', 'id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          updated_at: eb.ref('excluded.updated_at'),
          ...(withPhone ? { phone: eb.ref('excluded.phone') } : {}),
        })),
      )
      .execute();
  return {
    async upsert(accountId, users, at) {
      if (users.length === 0) return;
      const phoned = users.filter((u) => u.phone !== undefined);
      const phones = phoned.flatMap((u) => (u.phone ? [u.phone] : []));
      // A phone is one user's: whoever else held it lets it go first (the unique index would refuse both).
      if (phones.length > 0) {
        await db
          .updateTable('crm_users')
          .set({ phone: null })
          .where('account_id', '=', accountId)
          .where('phone', 'in', phones)
          .where('id', 'not in', phoned.map((u) => u.id))
          .execute();
      }
      if (phoned.length > 0) await insert(accountId, phoned, at, true);
      const rest = users.filter((u) => u.phone === undefined);
      if (rest.length > 0) await insert(accountId, rest, at, false);
    },
    async getMany(accountId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('crm_users').select(['id', 'name', 'phone']).where('account_id', '=', accountId).where('id', 'in', ids).execute();
      return rows.map(toUser);
    },
    async list(accountId, { after, limit }) {
      let query = db.selectFrom('crm_users').select(['id', 'name', 'phone']).where('account_id', '=', accountId);
      if (after !== undefined) query = query.where('id', '>', after);
      return (await query.orderBy('id').limit(limit).execute()).map(toUser);
    },
    async remove(accountId, ids) {
      if (ids.length === 0) return;
      await db.deleteFrom('crm_users').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    },
  };
}

const toContact = (r: { chat_type: string; key_kind: 'chat_id' | 'username' | 'phone'; key_value: string; name: string }) => ({
  chatType: r.chat_type as ChatType,
  kind: r.key_kind,
  value: r.key_value,
  name: r.name,
});

export function contactRepository(db: Kysely<DatabaseSchema>): ContactRepository {
  const columns = ['chat_type', 'key_kind', 'key_value', 'name'] as const;
  return {
    async upsert(accountId, contacts, at) {
      if (contacts.length === 0) return;
      await db
        .insertInto('crm_contacts')
        .values(
          contacts.map((c) => ({ account_id: accountId, chat_type: c.chatType, key_kind: c.kind, key_value: c.value, name: c.name, created_at: at, updated_at: at })),
        )
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'chat_type', 'key_kind', 'key_value'])
            .doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), updated_at: eb.ref('excluded.updated_at') })),
        )
        .execute();
    },
    async find(accountId, keys) {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('crm_contacts')
        .select(columns)
        .where('account_id', '=', accountId)
        .where((eb) => eb.or(keys.map((k) => eb.and([eb('chat_type', '=', k.chatType), eb('key_kind', '=', k.kind), eb('key_value', '=', k.value)]))))
        .execute();
      return rows.map(toContact);
    },
    async list(accountId, { chatType, after, limit }) {
      let query = db.selectFrom('crm_contacts').select(columns).where('account_id', '=', accountId);
      if (chatType) query = query.where('chat_type', '=', chatType);
      if (after) {
        query = query.where((eb) =>
          eb(eb.refTuple('chat_type', 'key_kind', 'key_value'), '>', eb.tuple(after.chatType, after.kind, after.value)),
        );
      }
      const rows = await query.orderBy('chat_type').orderBy('key_kind').orderBy('key_value').limit(limit).execute();
      return rows.map(toContact);
    },
    async remove(accountId, keys) {
      if (keys.length === 0) return;
      await db
        .deleteFrom('crm_contacts')
        .where('account_id', '=', accountId)
        .where((eb) => eb.or(keys.map((k) => eb.and([eb('chat_type', '=', k.chatType), eb('key_kind', '=', k.kind), eb('key_value', '=', k.value)]))))
        .execute();
    },
  };
}
