import type { Kysely, Selectable } from 'kysely';
import type { AuthRepository, CodeRecord, GrantRecord, OAuthClientRecord, OAuthTokenRecord, PartnerRecord, Scope } from '../../core/auth/ports.ts';
import type { DatabaseSchema, OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable, OAuthTokensTable, PartnersTable } from '../schema.ts';

const scopesOf = (text: string): Scope[] => text.split(' ').filter((s): s is Scope => s === 'transport' || s === 'crm');

const partnerOf = (r: Selectable<PartnersTable>): PartnerRecord => ({ id: r.id, login: r.login, secretHash: r.secret_hash, createdAt: r.created_at });

const clientOf = (r: Selectable<OAuthClientsTable>): OAuthClientRecord => ({
  id: r.id,
  partnerId: r.partner_id,
  name: r.name,
  redirectUris: r.redirect_uris,
  createdAt: r.created_at,
});

const grantOf = (r: Selectable<OAuthGrantsTable>): GrantRecord => ({
  id: r.id,
  accountId: r.account_id,
  partnerId: r.partner_id,
  clientId: r.client_id,
  scopes: scopesOf(r.scopes),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

const tokenOf = (r: Selectable<OAuthTokensTable>): OAuthTokenRecord => ({
  id: r.id,
  grantId: r.grant_id,
  kind: r.kind,
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  spentAt: r.spent_at,
});

const codeOf = (r: Selectable<OAuthCodesTable>): CodeRecord => ({
  id: r.id,
  secretHash: r.secret_hash,
  clientId: r.client_id,
  accountId: r.account_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  scopes: scopesOf(r.scopes),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  grantId: r.grant_id,
});

/** Partners, OAuth clients, grants, their tokens and authorization codes. */
export function oauthRepository(db: Kysely<DatabaseSchema>): Omit<AuthRepository, 'accounts' | 'owners' | 'waba'> {
  return {
    partners: {
      async upsert(p) {
        const row = await db
          .insertInto('partners')
          .values({ id: p.id, login: p.login, secret_hash: p.secretHash, created_at: p.createdAt })
          .onConflict((oc) => oc.column('login').doUpdateSet((eb) => ({ secret_hash: eb.ref('excluded.secret_hash') })))
          .returningAll()
          .executeTakeFirstOrThrow();
        return partnerOf(row);
      },
      async byLogin(login) {
        const row = await db.selectFrom('partners').selectAll().where('login', '=', login).executeTakeFirst();
        return row && partnerOf(row);
      },
    },
    clients: {
      async insert(c) {
        await db
          .insertInto('oauth_clients')
          .values({ id: c.id, partner_id: c.partnerId, name: c.name, redirect_uris: JSON.stringify(c.redirectUris), created_at: c.createdAt })
          .execute();
      },
      async get(id) {
        const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
        return row && clientOf(row);
      },
      async list(partnerId) {
        const rows = await db
          .selectFrom('oauth_clients')
          .selectAll()
          .where((eb) => (partnerId === null ? eb('partner_id', 'is', null) : eb('partner_id', '=', partnerId)))
          .orderBy('created_at')
          .execute();
        return rows.map(clientOf);
      },
    },
    grants: {
      async insert(g) {
        await db
          .insertInto('oauth_grants')
          .values({
            id: g.id,
            account_id: g.accountId,
            partner_id: g.partnerId,
            client_id: g.clientId,
            scopes: g.scopes.join(' '),
            created_at: g.createdAt,
            revoked_at: g.revokedAt,
          })
          .execute();
      },
      async revoke(id, at) {
        const r = await db.updateTable('oauth_grants').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
        return Number(r.numUpdatedRows) > 0;
      },
      async revokeAccount(accountId, at) {
        const r = await db
          .updateTable('oauth_grants')
          .set({ revoked_at: at })
          .where('account_id', '=', accountId)
          .where('revoked_at', 'is', null)
          .returning('id')
          .execute();
        return r.map((row) => row.id);
      },
    },
    tokens: {
      async insert(t) {
        await db
          .insertInto('oauth_tokens')
          .values({
            id: t.id,
            grant_id: t.grantId,
            kind: t.kind,
            secret_hash: t.secretHash,
            created_at: t.createdAt,
            expires_at: t.expiresAt,
            spent_at: t.spentAt,
          })
          .execute();
      },
      async get(id) {
        const token = await db.selectFrom('oauth_tokens').selectAll().where('id', '=', id).executeTakeFirst();
        if (!token) return undefined;
        const grant = await db.selectFrom('oauth_grants').selectAll().where('id', '=', token.grant_id).executeTakeFirstOrThrow();
        return { token: tokenOf(token), grant: grantOf(grant) };
      },
      async spend(id, at) {
        const r = await db.updateTable('oauth_tokens').set({ spent_at: at }).where('id', '=', id).where('spent_at', 'is', null).executeTakeFirst();
        return Number(r.numUpdatedRows) > 0;
      },
    },
    codes: {
      async insert(c) {
        await db
          .insertInto('oauth_codes')
          .values({
            id: c.id,
            secret_hash: c.secretHash,
            client_id: c.clientId,
            account_id: c.accountId,
            redirect_uri: c.redirectUri,
            code_challenge: c.codeChallenge,
            scopes: c.scopes.join(' '),
            created_at: c.createdAt,
            expires_at: c.expiresAt,
            used_at: c.usedAt,
            grant_id: c.grantId,
          })
          .execute();
      },
      async get(id) {
        const row = await db.selectFrom('oauth_codes').selectAll().where('id', '=', id).executeTakeFirst();
        return row && codeOf(row);
      },
      async redeem(id, at, grantId) {
        const r = await db
          .updateTable('oauth_codes')
          .set({ used_at: at, grant_id: grantId })
          .where('id', '=', id)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        return Number(r.numUpdatedRows) > 0;
      },
    },
  };
}
