import { sql } from 'kysely';
import type { MessageStatus } from '../../contract/messages.ts';
import type { channelClient } from './channel-client.ts';
import { eventually } from './eventually.ts';
import type { TestGateway } from './harness.ts';

export const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

/** A channel of the transport made active through the sandbox, however that transport connects. */
export async function activeChannel(t: TestGateway, api: ReturnType<typeof channelClient>, transport: string): Promise<string> {
  const credentials: Record<string, Record<string, string>> = {
    telegram: { telegram_token: TELEGRAM_TOKEN },
    maxbot: { access_token: 'm'.repeat(30) },
    avito: { code: 'sandbox-code' },
    instAPI: { username: 'shop', page_id: '1', inst_id: '17841', user_token: 'EAAB' },
  };
  const created = await api.create(transport, credentials[transport] ?? {});
  if (transport === 'wapi') await t.call('GET', created.url!.replace(/^https?:\/\/[^/]+/, ''));
  else if (!credentials[transport]) await api.sandbox(created.channel_id, 'scan');
  await api.untilActive(created.channel_id);
  return created.channel_id;
}

export interface StoredMessage {
  id: string;
  status: MessageStatus;
  reason: string | null;
  chat_ref: string;
}

export async function messageByRequest(t: TestGateway, requestId: string): Promise<StoredMessage | undefined> {
  const { rows } = await sql<StoredMessage>`select id, status, reason, chat_ref from messages where request_id = ${requestId}`.execute(t.gateway.database.db);
  return rows[0];
}

/** Waits until the send worker settled the message: anything past `accepted`. */
export function settled(t: TestGateway, requestId: string, until: MessageStatus[] = ['delivered', 'failed', 'read']): Promise<StoredMessage> {
  return eventually(async () => {
    const m = await messageByRequest(t, requestId);
    return m && until.includes(m.status) ? m : undefined;
  });
}

/** The message.status_update payloads of one request, in the order recorded. */
export async function statusTrail(t: TestGateway, requestId: string): Promise<string[]> {
  const { rows } = await sql<{ status: string; reason: string | null }>`
    select payload->>'status' as status, payload->>'reason' as reason from events
    where name = 'message.status_update' and payload->>'request_id' = ${requestId}
    order by created_at, (case payload->>'status' when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end)`.execute(
    t.gateway.database.db,
  );
  return rows.map((r) => (r.reason ? `${r.status}:${r.reason}` : r.status));
}
