import { sql, type Kysely } from 'kysely';
import type { RightsRepository } from '../../core/rights/ports.ts';
import type { UserRole } from '../../../contract/settings.ts';
import type { DatabaseSchema } from '../schema.ts';
import { fixedStatement } from './fixed-statement.ts';

/**
 * What a frame request needs of the rights, in one statement rather than roles + flags: on the embedded database
 * (one connection) every frame request pays each round trip in turn.
 */
const userRightsStatement = fixedStatement(
  (account, user) => sql<{ any_roles: boolean; own: { channel_id: string; role: UserRole }[] | null; hide_phones: boolean | null }>`
    select exists(select 1 from crm_user_roles where account_id = ${account}) as any_roles,
      (select json_agg(json_build_object('channel_id', r.channel_id, 'role', r.role) order by r.channel_id)
         from crm_user_roles r where r.account_id = ${account} and r.user_id = ${user}::text) as own,
      (select s.hide_phone_numbers_for_user_ids @> jsonb_build_array(${user}::text)
         from crm_settings s where s.account_id = ${account}) as hide_phones`,
);

export function rightsRepository(db: Kysely<DatabaseSchema>): RightsRepository {
  return {
    async roles(accountId) {
      const rows = await db
        .selectFrom('crm_user_roles')
        .select(['channel_id', 'user_id', 'role', 'allow_get_new_clients'])
        .where('account_id', '=', accountId)
        .orderBy('channel_id')
        .orderBy('user_id')
        .execute();
      return rows.map((r) => ({ channelId: r.channel_id, userId: r.user_id, role: r.role, allowGetNewClients: r.allow_get_new_clients }));
    },
    async replaceRoles(accountId, roles) {
      await db.deleteFrom('crm_user_roles').where('account_id', '=', accountId).execute();
      if (roles.length === 0) return;
      await db
        .insertInto('crm_user_roles')
        .values(roles.map((r) => ({ account_id: accountId, channel_id: r.channelId, user_id: r.userId, role: r.role, allow_get_new_clients: r.allowGetNewClients })))
        .execute();
    },
    async flags(accountId) {
      const row = await db.selectFrom('crm_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
      return (
        row && {
          hidePhoneNumbersForUserIds: row.hide_phone_numbers_for_user_ids as string[],
          pushInputOutputMessageEventsForManagers: row.push_input_output_message_events_for_managers,
        }
      );
    },
    async userRights(accountId, userId) {
      const { rows } = await userRightsStatement(db, accountId, userId);
      const row = rows[0]!;
      return {
        anyRoles: row.any_roles,
        own: (row.own ?? []).map((r) => ({ channelId: r.channel_id, role: r.role })),
        hidePhones: userId !== null && row.hide_phones === true,
      };
    },
    async saveFlags(accountId, flags, at) {
      const values = {
        hide_phone_numbers_for_user_ids: JSON.stringify(flags.hidePhoneNumbersForUserIds),
        push_input_output_message_events_for_managers: flags.pushInputOutputMessageEventsForManagers,
        updated_at: at,
      };
      await db
        .insertInto('crm_settings')
        .values({ account_id: accountId, ...values })
        .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
        .execute();
    },
    async assigneeOf(chatRef) {
      const row = await db.selectFrom('crm_chat_assignments').select('user_id').where('chat_ref', '=', chatRef).executeTakeFirst();
      return row?.user_id;
    },
    async assign(accountId, chatRef, userId, at) {
      await db
        .insertInto('crm_chat_assignments')
        .values({ chat_ref: chatRef, account_id: accountId, user_id: userId, assigned_at: at })
        .onConflict((oc) => oc.column('chat_ref').doNothing())
        .execute();
    },
    async assignedCounts(accountId, userIds) {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('crm_chat_assignments')
        .select(['user_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('account_id', '=', accountId)
        .where('user_id', 'in', userIds)
        .groupBy('user_id')
        .execute();
      return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
    },
    async waitingChats(accountId, channelIds) {
      if (channelIds !== null && channelIds.length === 0) return [];
      let query = db
        .selectFrom('chats as c')
        .leftJoin('crm_chat_assignments as a', 'a.chat_ref', 'c.id')
        .select(['c.id', 'a.user_id', 'c.last_message_at'])
        .where('c.account_id', '=', accountId)
        .where('c.unanswered', '>', 0);
      if (channelIds !== null) query = query.where('c.channel_id', 'in', channelIds);
      const rows = await query.execute();
      return rows.map((r) => ({ chatRef: r.id, assignee: r.user_id, lastMessageAt: r.last_message_at ? new Date(r.last_message_at) : null }));
    },
    async clearUnanswered(accountId, chatRef) {
      const oneChat = chatRef === undefined ? sql`` : sql`and id = ${chatRef}`;
      const result = await sql`update chats set unanswered = 0 where account_id = ${accountId} and unanswered > 0 ${oneChat}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}
