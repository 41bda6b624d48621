import type { Kysely } from 'kysely';
import type { GroupRepository } from '../../core/groups/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

export function groupRepository(db: Kysely<DatabaseSchema>): GroupRepository {
  return {
    async members(chatRef) {
      const rows = await db.selectFrom('group_members').selectAll().where('chat_ref', '=', chatRef).orderBy('member_id').execute();
      return rows.map((r) => ({ memberId: r.member_id, name: r.name, avatarUrl: r.avatar_url, status: r.status }));
    },
    async upsertMembers(chatRef, members) {
      if (members.length === 0) return;
      await db
        .insertInto('group_members')
        .values(members.map((m) => ({ chat_ref: chatRef, member_id: m.memberId, name: m.name, avatar_url: m.avatarUrl, status: m.status })))
        .onConflict((oc) =>
          oc.columns(['chat_ref', 'member_id']).doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            avatar_url: eb.ref('excluded.avatar_url'),
            status: eb.ref('excluded.status'),
          })),
        )
        .execute();
    },
    async avatar(chatRef) {
      const row = await db.selectFrom('chats').select('avatar_url').where('id', '=', chatRef).executeTakeFirst();
      return row?.avatar_url ?? null;
    },
    async setAvatar(chatRef, url) {
      await db.updateTable('chats').set({ avatar_url: url }).where('id', '=', chatRef).execute();
    },
  };
}
