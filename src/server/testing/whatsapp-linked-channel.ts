import { sql } from 'kysely';
import { credentialsCipher } from '../storage/credentials-cipher.ts';
import type { Database } from '../storage/database.ts';
import { deviceBundleOf, type DeviceBundle } from './whatsapp-customer-device.ts';

/**
 * A personal WhatsApp channel linked to the fake server's account, as a scan would have left it: active, its session's
 * credentials (what the library makes for a new device, as the account the server knows) sealed in its state. The
 * fake server cannot issue a QR, so sessions in tests start from here. Answers the device's key bundle.
 */
export async function seedLinkedWhatsAppChannel(db: Database['db'], input: { channelId: string; accountId: string; selfJid: string; secretKey: string }): Promise<DeviceBundle> {
  const { initAuthCreds, BufferJSON } = await import('baileys');
  const creds = { ...initAuthCreds(), me: { id: input.selfJid.replace('@', ':1@'), name: 'Acme Shop' } };
  const now = new Date();
  const phone = input.selfJid.split('@')[0]!;
  await db
    .insertInto('channels')
    .values({ id: input.channelId, account_id: input.accountId, transport: 'whatsapp', status: 'active', reason: null, phone, username: null, messenger_id: phone, name: 'Acme Shop', auth_url: null, tier: null, paid: true, credentials: null, qr: null, pairing: null, created_at: now, updated_at: now })
    .execute();
  await db.insertInto('sessions').values({ channel_id: input.channelId, transport: 'whatsapp', owner: null, lease_until: null }).execute();
  const sealed = credentialsCipher(input.secretKey).seal({ v: JSON.parse(JSON.stringify(creds, BufferJSON.replacer)) });
  await db.insertInto('session_state').values({ channel_id: input.channelId, key: 'creds', value: sealed }).execute();
  // What the device told WhatsApp at its login: customers' phones encrypt to it (the fake's `encryptInbound`).
  return deviceBundleOf(creds);
}

/** The channel's status and reason, and whether its session's credentials are still stored (a wipe forces a re-scan). */
export async function channelHealth(db: Database['db'], channelId: string): Promise<{ status: string; reason: string | null; keys: boolean }> {
  const channel = await db.selectFrom('channels').select(['status', 'reason']).where('id', '=', channelId).executeTakeFirstOrThrow();
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from session_state where channel_id = ${channelId} and key = 'creds'`.execute(db);
  return { status: channel.status, reason: channel.reason, keys: (rows[0]?.n ?? 0) > 0 };
}
