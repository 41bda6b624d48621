import { sql, type Kysely } from 'kysely';
import type { ContactHandle, StoredContact, StoredDeal, StoredPipeline } from '../../../contract/crm-entities.ts';
import type { ContactCardRepository } from '../../core/contacts/ports.ts';
import type { DealRepository, PipelineRepository } from '../../core/deals/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

const toContact = (r: { id: string; responsible_user_id: string | null; name: string; contact_data: unknown; uri: string | null }): StoredContact => ({
  id: r.id,
  responsible_user_id: r.responsible_user_id,
  name: r.name,
  contact_data: r.contact_data as ContactHandle[],
  uri: r.uri,
});

const toDeal = (r: { id: string; responsible_user_id: string | null; name: string; uri: string | null; contacts: unknown; closed: boolean }): StoredDeal => ({
  id: r.id,
  responsible_user_id: r.responsible_user_id,
  name: r.name,
  uri: r.uri,
  contacts: r.contacts as string[],
  closed: r.closed,
});

export function contactCardRepository(db: Kysely<DatabaseSchema>): ContactCardRepository {
  const columns = ['id', 'responsible_user_id', 'name', 'contact_data', 'uri'] as const;
  return {
    async upsert(accountId, contacts, at) {
      if (contacts.length === 0) return;
      await db
        .insertInto('crm_contact_cards')
        .values(
          contacts.map((c) => ({
            account_id: accountId,
            id: c.id,
            responsible_user_id: c.responsible_user_id,
            name: c.name,
            contact_data: JSON.stringify(c.contact_data),
            uri: c.uri,
            created_at: at,
            updated_at: at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['account_id', 'id']).doUpdateSet((eb) => ({
            responsible_user_id: eb.ref('excluded.responsible_user_id'),
            name: eb.ref('excluded.name'),
            contact_data: eb.ref('excluded.contact_data'),
            uri: eb.ref('excluded.uri'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },
    async getMany(accountId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('crm_contact_cards').select(columns).where('account_id', '=', accountId).where('id', 'in', ids).orderBy('id').execute();
      return rows.map(toContact);
    },
    async count(accountId) {
      const row = await db.selectFrom('crm_contact_cards').select((eb) => eb.fn.countAll<string | number>().as('n')).where('account_id', '=', accountId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async list(accountId, { offset, limit }) {
      const rows = await db.selectFrom('crm_contact_cards').select(columns).where('account_id', '=', accountId).orderBy('id').offset(offset).limit(limit).execute();
      return rows.map(toContact);
    },
    async remove(accountId, ids) {
      if (ids.length === 0) return;
      await db.deleteFrom('crm_contact_cards').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    },
    async findByHandle(accountId, handle) {
      const probes = (['chat_id', 'username', 'phone'] as const).flatMap((k) =>
        handle[k] ? [JSON.stringify([{ chat_type: handle.chat_type, [k]: handle[k] }])] : [],
      );
      if (probes.length === 0) return [];
      const rows = await db
        .selectFrom('crm_contact_cards')
        .select(columns)
        .where('account_id', '=', accountId)
        .where((eb) => eb.or(probes.map((p) => eb(sql`contact_data`, '@>', sql`${p}::jsonb`))))
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toContact);
    },
  };
}

export function dealRepository(db: Kysely<DatabaseSchema>): DealRepository {
  const columns = ['id', 'responsible_user_id', 'name', 'uri', 'contacts', 'closed'] as const;
  return {
    async upsert(accountId, deals, at) {
      if (deals.length === 0) return;
      await db
        .insertInto('crm_deals')
        .values(
          deals.map((d) => ({
            account_id: accountId,
            id: d.id,
            responsible_user_id: d.responsible_user_id,
            name: d.name,
            uri: d.uri,
            contacts: JSON.stringify(d.contacts),
            closed: d.closed,
            created_at: at,
            updated_at: at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['account_id', 'id']).doUpdateSet((eb) => ({
            responsible_user_id: eb.ref('excluded.responsible_user_id'),
            name: eb.ref('excluded.name'),
            uri: eb.ref('excluded.uri'),
            contacts: eb.ref('excluded.contacts'),
            closed: eb.ref('excluded.closed'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    },
    async getMany(accountId, ids) {
      if (ids.length === 0) return [];
      return (await db.selectFrom('crm_deals').select(columns).where('account_id', '=', accountId).where('id', 'in', ids).orderBy('id').execute()).map(toDeal);
    },
    async count(accountId) {
      const row = await db.selectFrom('crm_deals').select((eb) => eb.fn.countAll<string | number>().as('n')).where('account_id', '=', accountId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async list(accountId, { offset, limit }) {
      return (await db.selectFrom('crm_deals').select(columns).where('account_id', '=', accountId).orderBy('id').offset(offset).limit(limit).execute()).map(toDeal);
    },
    async remove(accountId, ids) {
      if (ids.length === 0) return;
      await db.deleteFrom('crm_deals').where('account_id', '=', accountId).where('id', 'in', ids).execute();
    },
    async openOfContact(accountId, contactId) {
      const rows = await db
        .selectFrom('crm_deals')
        .select(columns)
        .where('account_id', '=', accountId)
        .where('closed', '=', false)
        .where(sql<boolean>`contacts @> ${JSON.stringify([contactId])}::jsonb`)
        .orderBy('id')
        .execute();
      return rows.map(toDeal);
    },
  };
}

export function pipelineRepository(db: Kysely<DatabaseSchema>): PipelineRepository {
  return {
    async upsert(accountId, pipelines, at) {
      if (pipelines.length === 0) return;
      await db
        .insertInto('crm_pipelines')
        .values(pipelines.map((p) => ({ account_id: accountId, id: p.id, name: p.name, stages: JSON.stringify(p.stages), created_at: at, updated_at: at })))
        .onConflict((oc) =>
          oc.columns(['account_id', 'id']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), stages: eb.ref('excluded.stages'), updated_at: eb.ref('excluded.updated_at') })),
        )
        .execute();
    },
    async list(accountId) {
      const rows = await db.selectFrom('crm_pipelines').select(['id', 'name', 'stages']).where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
      return rows.map((r) => ({ id: r.id, name: r.name, stages: r.stages as StoredPipeline['stages'] }));
    },
  };
}
