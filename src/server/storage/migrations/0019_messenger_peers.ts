import { sql, type Kysely } from 'kysely';

/**
 * Who is behind a chat where a platform names people otherwise than the interface names its chats: Instagram writes
 * to a person by their Instagram-scoped id (IGSID), while an instagram chat's `chat_id` is the person's account name.
 * One row per person and channel: the platform's id, the name the chat is recorded under (`handle`, unique in its
 * channel while someone holds it: a name given up and taken by another person moves to them), and when the platform
 * was last asked. Kept with the channel (a deleted channel's history keeps its rows; a channel removed with its chats
 * takes them along). A new table: nothing existing is rewritten, and a process of the release before ignores it.
 *
 * Instagram's updates name the account only, not the channel: `channels_messenger_id_idx` finds the channel of an
 * account. Channels are few (one row per connected account), so building it holds writes to channels back only
 * for a moment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table messenger_peers (
      channel_id uuid not null references channels (id) on delete cascade,
      peer_id text not null,
      handle text,
      name text,
      checked_at timestamptz not null,
      primary key (channel_id, peer_id)
    )`.execute(db);
  await sql`create unique index messenger_peers_handle_idx on messenger_peers (channel_id, handle) where handle is not null`.execute(db);
  await sql`create index if not exists channels_messenger_id_idx on channels (transport, messenger_id) where deleted_at is null and messenger_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists channels_messenger_id_idx`.execute(db);
  await sql`drop table if exists messenger_peers`.execute(db);
}
