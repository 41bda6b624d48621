import type { Kysely, Selectable } from 'kysely';
import type { Transport } from '../../../contract/channels.ts';
import type { ActiveChat, ChatRef, EmbedOptions, SessionEvents } from '../../../contract/iframe-links.ts';
import { allScopes, type Scope } from '../../core/auth/ports.ts';
import type { EmbedSessionRecord, EmbedSessionRepository, EmbeddingOriginRepository } from '../../core/embedding/ports.ts';
import type { DatabaseSchema, EmbedSessionsTable } from '../schema.ts';

const toSession = (r: Selectable<EmbedSessionsTable>): EmbedSessionRecord => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  secretHash: r.secret_hash,
  linkId: r.link_id,
  user: r.user_id === null ? null : { id: r.user_id, name: r.user_name },
  scope: r.scope,
  chats: r.chats as ChatRef[],
  activeChat: (r.active_chat as ActiveChat | null) ?? null,
  transport: r.transport as Transport | null,
  channelId: r.channel_id,
  options: r.options as EmbedOptions,
  // Sessions opened before the frame could choose its bridge messages post both kinds.
  useEvents: (r.use_events as SessionEvents | null) ?? { messages: true, deals: true },
  clientType: r.client_type,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  maxExpiresAt: r.max_expires_at,
  revokedAt: r.revoked_at,
  mintedBy: r.minted_by,
  scopes: r.scopes === null ? null : (r.scopes.split(',').filter((s) => (allScopes as readonly string[]).includes(s)) as Scope[]),
});

export function embedSessionRepository(db: Kysely<DatabaseSchema>): EmbedSessionRepository {
  return {
    async insert(s) {
      const inserted = await db
        .insertInto('embed_sessions')
        .values({
          id: s.id,
          account_id: s.accountId,
          link_id: s.linkId,
          secret_hash: s.secretHash,
          kind: s.kind,
          user_id: s.user?.id ?? null,
          user_name: s.user?.name ?? null,
          scope: s.scope,
          chats: JSON.stringify(s.chats),
          active_chat: s.activeChat && JSON.stringify(s.activeChat),
          transport: s.transport,
          channel_id: s.channelId,
          options: JSON.stringify(s.options),
          use_events: s.useEvents ? JSON.stringify(s.useEvents) : null,
          client_type: s.clientType ?? null,
          created_at: s.createdAt,
          expires_at: s.expiresAt,
          max_expires_at: s.maxExpiresAt,
          revoked_at: s.revokedAt,
          minted_by: s.mintedBy,
          scopes: s.scopes ? s.scopes.join(',') : null,
        })
        .onConflict((oc) => oc.column('link_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async get(id) {
      const row = await db.selectFrom('embed_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row);
    },
    async countOpen(accountId, now) {
      const row = await db
        .selectFrom('embed_sessions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async extend(id, expiresAt) {
      await db.updateTable('embed_sessions').set({ expires_at: expiresAt }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async revoke(id, at) {
      await db.updateTable('embed_sessions').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async revokeOpen(accountId, filter, at) {
      let query = db
        .updateTable('embed_sessions')
        .set({ revoked_at: at })
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at);
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      const rows = await query.returning('id').execute();
      return rows.map((r) => r.id);
    },
    async endGrant(grant, at) {
      // The grant first: a link exchanged meanwhile either sees it (and is refused) or made its session before the update.
      await db.insertInto('ended_grants').values({ grant_id: grant, ended_at: at }).onConflict((oc) => oc.column('grant_id').doNothing()).execute();
      const rows = await db
        .updateTable('embed_sessions')
        .set({ revoked_at: at })
        .where('minted_by', '=', grant)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },
    async grantEnded(grant) {
      const row = await db.selectFrom('ended_grants').select('grant_id').where('grant_id', '=', grant).executeTakeFirst();
      return row !== undefined;
    },
    async purgeEndedBefore(before) {
      await db.deleteFrom('embed_sessions').where('max_expires_at', '<', before).execute();
    },
  };
}

export function embeddingOriginRepository(db: Kysely<DatabaseSchema>): EmbeddingOriginRepository {
  return {
    async list(accountId) {
      const rows = await db.selectFrom('embedding_origins').select('origin').where('account_id', '=', accountId).orderBy('created_at').orderBy('origin').execute();
      return rows.map((r) => r.origin);
    },
    async replace(accountId, origins, at) {
      // Callers run this in a transaction when they need it atomic; the two statements are idempotent on retry.
      await db.deleteFrom('embedding_origins').where('account_id', '=', accountId).execute();
      if (origins.length === 0) return;
      // Distinct timestamps keep the caller's order when listed back.
      await db
        .insertInto('embedding_origins')
        .values(origins.map((origin, i) => ({ account_id: accountId, origin, created_at: new Date(at.getTime() + i) })))
        .execute();
    },
  };
}
