import { sql, type Kysely, type Selectable } from 'kysely';
import type { AccountProfile, AuthRepository, WabaTransaction } from '../../core/auth/ports.ts';
import type { AccountsTable, DatabaseSchema, WabaTransactionsTable } from '../schema.ts';
import { oauthRepository } from './oauth.ts';

const profileOf = (r: Selectable<AccountsTable>): AccountProfile => ({
  accountId: r.id,
  publicId: Number(r.public_id),
  name: r.name,
  partnerId: r.partner_id,
  lang: r.lang,
  currency: r.currency,
  country: r.country,
  timezone: r.timezone,
  wabaBalance: Number(r.waba_balance),
  createdAt: r.created_at,
});

const transactionOf = (r: Selectable<WabaTransactionsTable>): WabaTransaction => ({
  id: r.id,
  accountId: r.account_id,
  channelId: r.channel_id,
  kind: r.kind,
  amount: Number(r.amount),
  chatId: r.chat_id,
  createdAt: r.created_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const insertTransaction = (db: Kysely<DatabaseSchema>, tx: WabaTransaction) =>
  db
    .insertInto('waba_transactions')
    .values({ id: tx.id, account_id: tx.accountId, channel_id: tx.channelId, kind: tx.kind, amount: tx.amount, chat_id: tx.chatId, created_at: tx.createdAt })
    .execute();

/** Everything the partner API and OAuth read and write beside the core's accounts and tokens. */
export function authRepository(db: Kysely<DatabaseSchema>): AuthRepository {
  return {
    ...oauthRepository(db),
    accounts: {
      async describe(accountId, p) {
        const row = await db
          .updateTable('accounts')
          .set({ partner_id: p.partnerId, lang: p.lang, currency: p.currency, country: p.country, timezone: p.timezone })
          .where('id', '=', accountId)
          .returning('public_id')
          .executeTakeFirstOrThrow();
        return Number(row.public_id);
      },
      async find(ref) {
        let query = db.selectFrom('accounts').selectAll();
        if (/^\d{8}$/.test(ref)) query = query.where('public_id', '=', Number(ref));
        else if (UUID.test(ref)) query = query.where('id', '=', ref);
        else return undefined;
        const row = await query.executeTakeFirst();
        return row && profileOf(row);
      },
      async list(partnerId) {
        let query = db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id');
        if (partnerId !== null) query = query.where('partner_id', '=', partnerId);
        return (await query.execute()).map(profileOf);
      },
    },
    owners: {
      async set(o) {
        await db
          .insertInto('account_owners')
          .values({ account_id: o.accountId, email: o.email, password_hash: o.passwordHash, created_at: o.createdAt })
          .onConflict((oc) => oc.column('account_id').doUpdateSet((eb) => ({ email: eb.ref('excluded.email'), password_hash: eb.ref('excluded.password_hash') })))
          .execute();
      },
      async byEmail(email) {
        const row = await db.selectFrom('account_owners').select(['account_id', 'password_hash']).where('email', '=', email).executeTakeFirst();
        return row && { accountId: row.account_id, passwordHash: row.password_hash };
      },
    },
    waba: {
      async topUp(tx) {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('accounts').set({ waba_balance: sql<number>`waba_balance + ${tx.amount}` }).where('id', '=', tx.accountId).execute();
          await insertTransaction(trx, tx);
        });
      },
      async charge(tx) {
        const short = new Error('balance too low');
        try {
          await db.transaction().execute(async (trx) => {
            const inserted = await trx
              .insertInto('waba_transactions')
              .values({ id: tx.id, account_id: tx.accountId, channel_id: tx.channelId, kind: tx.kind, amount: tx.amount, chat_id: tx.chatId, created_at: tx.createdAt })
              .onConflict((oc) => oc.column('id').doNothing())
              .returning('id')
              .executeTakeFirst();
            if (!inserted) return;
            const r = await trx
              .updateTable('accounts')
              .set({ waba_balance: sql<number>`waba_balance - ${tx.amount}` })
              .where('id', '=', tx.accountId)
              .where('waba_balance', '>=', tx.amount)
              .executeTakeFirst();
            if (Number(r.numUpdatedRows) === 0) throw short;
          });
          return true;
        } catch (err) {
          if (err === short) return false;
          throw err;
        }
      },
      async billingOfChannel(channelId) {
        const row = await db
          .selectFrom('channels')
          .innerJoin('accounts', 'accounts.id', 'channels.account_id')
          .select(['accounts.id as account_id', 'accounts.currency'])
          .where('channels.id', '=', channelId)
          .executeTakeFirst();
        return row && { accountId: row.account_id, currency: row.currency };
      },
      async transactions(channelId, from, to) {
        const rows = await db
          .selectFrom('waba_transactions')
          .selectAll()
          .where('channel_id', '=', channelId)
          .where('created_at', '>=', from)
          .where('created_at', '<', to)
          .orderBy('created_at')
          .execute();
        return rows.map(transactionOf);
      },
    },
  };
}
