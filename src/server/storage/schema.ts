import type { ColumnType } from 'kysely';

/** Table shapes as Kysely sees them. Migrations are the source of truth; keep these in step. */
export interface AccountsTable {
  id: string;
  name: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface ApiTokensTable {
  id: string;
  account_id: string;
  kind: 'client' | 'sidecar';
  name: string | null;
  secret_hash: string;
  created_at: ColumnType<Date, Date, never>;
  revoked_at: Date | null;
}

export interface WebhookSubscriptionsTable {
  id: string;
  account_id: string;
  url: string;
  event: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface EventsTable {
  id: string;
  account_id: string;
  name: string;
  ordering_key: string | null;
  payload: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date, never>;
  dispatched_at: Date | null;
}

export interface ChannelsTable {
  id: string;
  account_id: string;
  transport: string;
  status: string;
  reason: string | null;
  phone: string | null;
  username: string | null;
  messenger_id: string | null;
  name: string | null;
  auth_url: string | null;
  tier: string | null;
  paid: boolean;
  credentials: string | null;
  qr: ColumnType<{ payload: string; issuedAt: string; shown: number } | null, string | null, string | null>;
  pairing: ColumnType<{ code: string; phone: string } | null, string | null, string | null>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface SandboxPhonesTable {
  phone: string;
  two_factor_password: string | null;
}

export interface DatabaseSchema {
  channels: ChannelsTable;
  sandbox_phones: SandboxPhonesTable;
  sandbox_revoked_tokens: { token_hash: string };
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  events: EventsTable;
}
