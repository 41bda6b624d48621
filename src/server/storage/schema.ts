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
  status: ColumnType<'active' | 'disabled', 'active' | 'disabled' | undefined>;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
}

export interface EventsTable {
  id: string;
  account_id: string;
  name: string;
  ordering_key: string | null;
  payload: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date, never>;
  dispatched_at: Date | null;
  /** Recording order (bigserial; strings from the driver). */
  seq: ColumnType<string, never, never>;
}

export interface WebhookSettingsTable {
  account_id: string;
  /** Sealed with SECRET_KEY. */
  secret: string;
  previous_secret: string | null;
  previous_expires_at: Date | null;
  batching: ColumnType<boolean, boolean | undefined>;
  updated_at: Date;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  account_id: string;
  event_id: string;
  event_name: string;
  endpoint: string;
  lane: string;
  seq: ColumnType<string, string | number, never>;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number | undefined>;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  kicked_at: Date | null;
  batch_id: string | null;
  created_at: ColumnType<Date, Date, never>;
  delivered_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  subscription_id: string;
  idempotency_key: string;
  event_name: string;
  event_ids: ColumnType<string[], string, never>;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  outcome: 'delivered' | 'retry' | 'failed' | 'disabled';
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
  webhook_settings: WebhookSettingsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
