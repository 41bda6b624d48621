import { sql, type Kysely } from 'kysely';

/**
 * What a live bot channel last registered with its platform (Telegram's webhook, MAX's subscription): a fingerprint
 * of the hook address, the update kinds and the secret, so that the gateway can tell which channels were registered
 * under other settings (an earlier release's update kinds, an earlier PUBLIC_URL) and register them again. Null for
 * channels registered before it was kept: those count as out of date. `hook_lease_until` keeps one process's claim
 * on a channel while it registers it, so that several processes do not all call for it. Nullable, no default:
 * adding them rewrites nothing, however many channels there are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table channels add column hook_fingerprint text, add column hook_lease_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table channels drop column hook_fingerprint, drop column hook_lease_until`.execute(db);
}
