import { sql, type Kysely, type Selectable } from 'kysely';
import type { SandboxCustomer, SandboxDelivery, SandboxStateRepository } from '../../core/sandbox/ports.ts';
import type { DatabaseSchema, SandboxCustomersTable, SandboxReceivedTable } from '../schema.ts';
import { fixedStatement } from './fixed-statement.ts';
import { anyUuid, jsonRows } from './json-rows.ts';

export interface CustomerKey {
  channelId: string;
  chatType: string;
  chatId: string;
}

const customerKey = (k: CustomerKey) => `${k.channelId}|${k.chatType}|${k.chatId}`;
const toCustomer = (r: Selectable<SandboxCustomersTable>): SandboxCustomer => ({ wroteFirst: r.wrote_first, state: r.state, lastInboundAt: r.last_inbound_at });
const toDelivery = (r: Selectable<SandboxReceivedTable>): SandboxDelivery => ({
  requestId: r.request_id,
  channelId: r.channel_id,
  chatId: r.chat_id,
  messengerMessageId: r.messenger_message_id,
  receivedAt: r.received_at,
});

const customersStatement = fixedStatement(
  (channels, types, chats) => sql<Selectable<SandboxCustomersTable>>`
    select * from sandbox_customers
    where channel_id = ${anyUuid(channels)} and chat_type = any(${types}::text[]) and chat_id = any(${chats}::text[])`,
);

const receiveStatement = fixedStatement(
  (deliveries) => sql<Selectable<SandboxReceivedTable>>`
    insert into sandbox_received (request_id, channel_id, chat_id, messenger_message_id, received_at)
    select * from ${jsonRows('d', { request_id: 'uuid', channel_id: 'uuid', chat_id: 'text', messenger_message_id: 'text', received_at: 'timestamptz' }, deliveries)}
    on conflict (request_id) do nothing
    returning *`,
);

/** Customers by channel and chat, in the order asked (undefined for those the network does not know). */
export async function customersByKey(db: Kysely<DatabaseSchema>, keys: readonly CustomerKey[]): Promise<(SandboxCustomer | undefined)[]> {
  if (keys.length === 0) return [];
  // Every combination of the asked channels, types and chats, through the key's index; the few extra
  // combinations (there is mostly one channel and one type) are left out below.
  const distinct = (of: (k: CustomerKey) => string) => [...new Set(keys.map(of))];
  const { rows } = await customersStatement(db, distinct((k) => k.channelId), distinct((k) => k.chatType), distinct((k) => k.chatId));
  const found = new Map(rows.map((r) => [customerKey({ channelId: r.channel_id, chatType: r.chat_type, chatId: r.chat_id }), toCustomer(r)]));
  return keys.map((k) => found.get(customerKey(k)));
}

/**
 * Receives many deliveries at once, each request id once: a request received before (or twice in this batch)
 * answers with its first record. In the order given.
 */
export async function receiveManyOnce(db: Kysely<DatabaseSchema>, deliveries: readonly SandboxDelivery[]): Promise<SandboxDelivery[]> {
  const rows = deliveries.map((d) => ({
    request_id: d.requestId,
    channel_id: d.channelId,
    chat_id: d.chatId,
    messenger_message_id: d.messengerMessageId,
    received_at: d.receivedAt,
  }));
  const { rows: inserted } = await receiveStatement(db, JSON.stringify(rows));
  const byRequest = new Map(inserted.map((r) => [r.request_id, toDelivery(r)]));
  const earlier = [...new Set(deliveries.map((d) => d.requestId).filter((id) => !byRequest.has(id)))];
  if (earlier.length > 0) {
    for (const r of await db.selectFrom('sandbox_received').selectAll().where('request_id', '=', anyUuid(earlier)).execute()) byRequest.set(r.request_id, toDelivery(r));
  }
  return deliveries.map((d) => byRequest.get(d.requestId)!);
}

export function sandboxStateRepository(db: Kysely<DatabaseSchema>): SandboxStateRepository {
  return {
    async twoFactorPassword(accountId, phone) {
      const row = await db
        .selectFrom('sandbox_phones')
        .select('two_factor_password')
        .where('account_id', '=', accountId)
        .where('phone', '=', phone)
        .executeTakeFirst();
      return row?.two_factor_password ?? null;
    },
    async setTwoFactorPassword(accountId, phone, password) {
      await db
        .insertInto('sandbox_phones')
        .values({ account_id: accountId, phone, two_factor_password: password })
        .onConflict((oc) => oc.columns(['account_id', 'phone']).doUpdateSet({ two_factor_password: password }))
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
      return (await customersByKey(db, [{ channelId, chatType, chatId }]))[0];
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
      return (await receiveManyOnce(db, [d]))[0]!;
    },
    async receivedCount(channelId) {
      const row = await db.selectFrom('sandbox_received').select((eb) => eb.fn.countAll<string>().as('n')).where('channel_id', '=', channelId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
