import { sql, type Kysely, type Selectable } from 'kysely';
import type { TokenRecord, TokenRepository } from '../../core/ports.ts';
import type { ApiTokensTable, DatabaseSchema } from '../schema.ts';
import { fixedStatement } from './fixed-statement.ts';
import { anyUuid } from './json-rows.ts';

const toRecord = (r: Selectable<ApiTokensTable>): TokenRecord => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  name: r.name,
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

const tokensStatement = fixedStatement((ids) => sql<Selectable<ApiTokensTable>>`select * from api_tokens where id = ${anyUuid(ids)}`);

/** Tokens by id, in the order asked (undefined where none). */
export async function tokensById(db: Kysely<DatabaseSchema>, ids: readonly string[]): Promise<(TokenRecord | undefined)[]> {
  const { rows } = await tokensStatement(db, [...new Set(ids)]);
  const byId = new Map(rows.map((r) => [r.id, toRecord(r)]));
  return ids.map((id) => byId.get(id));
}

export function tokenRepository(db: Kysely<DatabaseSchema>): TokenRepository {
  return {
    async insert(t) {
      await db
        .insertInto('api_tokens')
        .values({
          id: t.id,
          account_id: t.accountId,
          kind: t.kind,
          name: t.name,
          secret_hash: t.secretHash,
          created_at: t.createdAt,
          revoked_at: t.revokedAt,
        })
        .execute();
    },
    async get(id) {
      const row = await db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRecord(row);
    },
    async listByAccount(accountId) {
      const rows = await db
        .selectFrom('api_tokens')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },
    async revoke(accountId, tokenId, at) {
      const result = await db
        .updateTable('api_tokens')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
        .where('id', '=', tokenId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
