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

export interface DatabaseSchema {
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  events: EventsTable;
}
