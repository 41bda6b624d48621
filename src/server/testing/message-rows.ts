import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../storage/schema.ts';

/**
 * Chats and messages written straight into their tables, for tests and benchmarks of what reads them
 * (the export) without going through sending.
 */

/** An account with one active channel of `transport`, both made at `at`: what the rows below belong to. */
export async function insertAccountWithChannel(db: Kysely<DatabaseSchema>, o: { accountId: string; channelId: string; transport: string; at: Date }): Promise<void> {
  await db.insertInto('accounts').values({ id: o.accountId, name: 'A', created_at: o.at }).execute();
  await db
    .insertInto('channels')
    .values({ id: o.channelId, account_id: o.accountId, transport: o.transport, status: 'active', reason: null, phone: null, username: null, messenger_id: null, name: null, auth_url: null, tier: null, paid: true, credentials: null, qr: null, pairing: null, created_at: o.at, updated_at: o.at })
    .execute();
}

export interface ChatRow {
  accountId: string;
  channelId: string;
  chatType?: string;
  chatId?: string | null;
  name?: string | null;
}

export async function insertChat(db: Kysely<DatabaseSchema>, chat: ChatRow): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('chats')
    .values({
      id,
      account_id: chat.accountId,
      channel_id: chat.channelId,
      chat_type: chat.chatType ?? 'whatsapp',
      chat_id: chat.chatId === undefined ? String(79_000_000_000 + Math.floor(Math.random() * 1e9)) : chat.chatId,
      username: null,
      phone: null,
      name: chat.name ?? null,
      created_at: new Date(0),
    })
    .execute();
  return id;
}

export interface MessageRow {
  accountId: string;
  channelId: string;
  chatRef: string;
  createdAt: Date;
  id?: string;
  direction?: 'inbound' | 'outbound';
  status?: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
  reason?: string | null;
  text?: string | null;
  attachment?: { url: string; name?: string } | null;
  template?: { id: string; values?: string[] } | null;
  crmUserId?: string | null;
  quotedMessageId?: string | null;
  editedAt?: Date | null;
  deletedAt?: Date | null;
}

/** Inserts the messages in the given order (which is their `seq` order); returns their ids. */
export async function insertMessages(db: Kysely<DatabaseSchema>, rows: MessageRow[]): Promise<string[]> {
  const values = rows.map((m) => ({
    id: m.id ?? randomUUID(),
    account_id: m.accountId,
    channel_id: m.channelId,
    chat_ref: m.chatRef,
    direction: m.direction ?? 'inbound',
    status: m.status ?? (m.direction === 'outbound' ? 'delivered' : 'read'),
    reason: m.reason ?? null,
    text: m.text === undefined ? 'Hello' : m.text,
    attachment: m.attachment ? JSON.stringify(m.attachment) : null,
    template: m.template ? JSON.stringify(m.template) : null,
    crm_user_id: m.crmUserId ?? null,
    quoted_message_id: m.quotedMessageId ?? null,
    reset_unanswered: true,
    created_at: m.createdAt,
    edited_at: m.editedAt ?? null,
    deleted_at: m.deletedAt ?? null,
  }));
  for (let i = 0; i < values.length; i += 1_000) await db.insertInto('messages').values(values.slice(i, i + 1_000)).execute();
  return values.map((v) => v.id);
}

/**
 * `count` messages in one statement, spread over `chats` round-robin, `stepMs` apart from `start`, with texts
 * of about `textLength` characters (some quoted, some with line breaks): the bulk load of benchmarks.
 */
export async function insertSyntheticMessages(
  db: Kysely<DatabaseSchema>,
  o: { accountId: string; channelId: string; chats: string[]; count: number; start: Date; stepMs: number; textLength?: number },
): Promise<void> {
  const chats = sql`(array[${sql.join(o.chats.map((c) => sql`${c}::uuid`))}])`;
  const filler = 'x'.repeat(Math.max(0, (o.textLength ?? 80) - 30));
  await sql`
    insert into messages (id, account_id, channel_id, chat_ref, direction, status, text, created_at)
    select gen_random_uuid(), ${o.accountId}::uuid, ${o.channelId}::uuid, ${chats}[1 + (i % ${o.chats.length})],
           case when i % 2 = 0 then 'inbound' else 'outbound' end,
           case when i % 2 = 0 then 'read' else 'delivered' end,
           'Message ' || i || case when i % 7 = 0 then ', "quoted"' when i % 11 = 0 then E'\nsecond line' else '' end || ' ' || ${filler},
           ${o.start}::timestamptz + (i * ${o.stepMs}) * interval '1 millisecond'
    from generate_series(0, ${o.count - 1}) as i`.execute(db);
}
