import type { Kysely } from 'kysely';
import type { MessageReaction } from '../../../contract/bff-chats.ts';
import { AGENT_REACTOR, type ReactionRepository } from '../../core/messages/reactions.ts';
import type { DatabaseSchema } from '../schema.ts';

export function reactionRepository(db: Kysely<DatabaseSchema>): ReactionRepository {
  return {
    async set(messageId, reactor, emoji, at) {
      const before = await db
        .selectFrom('message_reactions')
        .select('emoji')
        .where('message_id', '=', messageId)
        .where('reactor', '=', reactor)
        .executeTakeFirst();
      if (emoji === null) {
        if (before) await db.deleteFrom('message_reactions').where('message_id', '=', messageId).where('reactor', '=', reactor).execute();
      } else if (before?.emoji !== emoji) {
        await db
          .insertInto('message_reactions')
          .values({ message_id: messageId, reactor, emoji, reacted_at: at })
          .onConflict((oc) => oc.columns(['message_id', 'reactor']).doUpdateSet({ emoji, reacted_at: at }))
          .execute();
      }
      return before?.emoji ?? null;
    },
    async ofMessages(messageIds) {
      const found = new Map<string, MessageReaction[]>();
      if (messageIds.length === 0) return found;
      const rows = await db
        .selectFrom('message_reactions')
        .select(['message_id', 'reactor', 'emoji'])
        .where('message_id', 'in', messageIds)
        .orderBy('reacted_at')
        .execute();
      for (const row of rows) {
        const list = found.get(row.message_id) ?? [];
        list.push({ emoji: row.emoji, by: row.reactor === AGENT_REACTOR ? 'agent' : 'customer', reactor: row.reactor });
        found.set(row.message_id, list);
      }
      return found;
    },
  };
}
