import { sql, type Kysely, type Selectable } from 'kysely';
import type { MessengerPeer, PeerDirectory } from '../../core/messages/peers.ts';
import type { DatabaseSchema, MessengerPeersTable } from '../schema.ts';

const toPeer = (r: Selectable<MessengerPeersTable>): MessengerPeer => ({ peerId: r.peer_id, handle: r.handle, name: r.name, checkedAt: r.checked_at });

/** The people behind chats of the live drivers that address people by ids of the platform's own (messenger_peers). */
export function peerDirectory(db: Kysely<DatabaseSchema>): PeerDirectory {
  return {
    async byPeerId(channelId, peerId) {
      const row = await db.selectFrom('messenger_peers').selectAll().where('channel_id', '=', channelId).where('peer_id', '=', peerId).executeTakeFirst();
      return row && toPeer(row);
    },
    async byHandle(channelId, handle) {
      const row = await db.selectFrom('messenger_peers').selectAll().where('channel_id', '=', channelId).where('handle', '=', handle).executeTakeFirst();
      return row && toPeer(row);
    },
    async save(channelId, peer) {
      // One statement: whoever held the name gives it up before this person takes it (the unique index is checked
      // per row as the statement writes, so the release goes first, in a CTE the insert waits for).
      await sql`
        with released as (
          update messenger_peers set handle = null
          where channel_id = ${channelId} and handle = ${peer.handle} and peer_id <> ${peer.peerId}
          returning peer_id)
        insert into messenger_peers (channel_id, peer_id, handle, name, checked_at)
        select ${channelId}, ${peer.peerId}, ${peer.handle}, ${peer.name}, ${peer.checkedAt}
        where (select count(*) from released) >= 0
        on conflict (channel_id, peer_id) do update set handle = excluded.handle, name = excluded.name, checked_at = excluded.checked_at`.execute(db);
    },
  };
}
