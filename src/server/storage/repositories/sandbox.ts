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
  };
}
