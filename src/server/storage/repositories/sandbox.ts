import type { Kysely } from 'kysely';
import type { SandboxStateRepository } from '../../core/sandbox/ports.ts';
import type { DatabaseSchema } from '../schema.ts';

export function sandboxStateRepository(db: Kysely<DatabaseSchema>): SandboxStateRepository {
  return {
    async twoFactorPassword(phone) {
      const row = await db.selectFrom('sandbox_phones').select('two_factor_password').where('phone', '=', phone).executeTakeFirst();
      return row?.two_factor_password ?? null;
    },
    async setTwoFactorPassword(phone, password) {
      await db
        .insertInto('sandbox_phones')
        .values({ phone, two_factor_password: password })
        .onConflict((oc) => oc.column('phone').doUpdateSet({ two_factor_password: password }))
        .execute();
    },
    async isTokenRevoked(tokenHash) {
      const row = await db.selectFrom('sandbox_revoked_tokens').select('token_hash').where('token_hash', '=', tokenHash).executeTakeFirst();
      return row !== undefined;
    },
    async revokeToken(tokenHash) {
      await db.insertInto('sandbox_revoked_tokens').values({ token_hash: tokenHash }).onConflict((oc) => oc.doNothing()).execute();
    },
    async customer(channelId, chatType, chatId) {
      const row = await db
        .selectFrom('sandbox_customers')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('chat_type', '=', chatType)
        .where('chat_id', '=', chatId)
        .executeTakeFirst();
      return row && { wroteFirst: row.wrote_first, state: row.state, lastInboundAt: row.last_inbound_at };
    },
    async setCustomer(channelId, chatType, chatId, change) {
      const set = {
        ...(change.wroteFirst !== undefined ? { wrote_first: change.wroteFirst } : {}),
        ...(change.state !== undefined ? { state: change.state } : {}),
        ...(change.lastInboundAt !== undefined ? { last_inbound_at: change.lastInboundAt } : {}),
      };
      await db
        .insertInto('sandbox_customers')
        .values({ channel_id: channelId, chat_type: chatType, chat_id: chatId, ...set })
        .onConflict((oc) => (Object.keys(set).length > 0 ? oc.columns(['channel_id', 'chat_type', 'chat_id']).doUpdateSet(set) : oc.doNothing()))
        .execute();
    },
    async receiveOnce(d) {
      const inserted = await db
        .insertInto('sandbox_received')
        .values({ request_id: d.requestId, channel_id: d.channelId, chat_id: d.chatId, messenger_message_id: d.messengerMessageId, received_at: d.receivedAt })
        .onConflict((oc) => oc.column('request_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      const row = inserted ?? (await db.selectFrom('sandbox_received').selectAll().where('request_id', '=', d.requestId).executeTakeFirstOrThrow());
      return { requestId: row.request_id, channelId: row.channel_id, chatId: row.chat_id, messengerMessageId: row.messenger_message_id, receivedAt: row.received_at };
    },
    async receivedCount(channelId) {
      const row = await db.selectFrom('sandbox_received').select((eb) => eb.fn.countAll<string>().as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
