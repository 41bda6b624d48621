import type { ColumnType } from 'kysely';

/** The event stream and the webhooks' subscriptions, deliveries and attempts. */

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
  /** Which face formats its bodies (migration 0035). */
  face: ColumnType<'v2' | 'v3', 'v2' | 'v3' | undefined>;
}

/** An account's v3 webhook address, its switches and the CRM's key (sealed), migration 0035. */
export interface WebhookV3SettingsTable {
  account_id: string;
  uri: string | null;
  messages_and_statuses: boolean;
  contacts_and_deals_creation: boolean;
  channels_updates: boolean;
  template_status: boolean;
  crm_key: string | null;
  updated_at: Date;
}

export interface EventsTable {
  id: string;
  account_id: string;
  name: string;
  ordering_key: string | null;
  payload: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date, never>;
  /** Recording order, a bigint identity (pg returns it as a string). */
  position: ColumnType<string | number | bigint, never, never>;
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
  batch_id: string | null;
  /** A batch's head: the lane position its run of follow-ups was read up to (see `followRuns`). */
  run_until: ColumnType<string | null, string | number | null | undefined, string | number | null>;
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
