import type { ColumnType } from 'kysely';

/** Who may call the gateway besides its client tokens: partners, OAuth clients and grants, account owners; and the WhatsApp Business balance. */

export interface PartnersTable {
  id: string;
  login: string;
  secret_hash: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface OAuthClientsTable {
  id: string;
  partner_id: string | null;
  name: string;
  redirect_uris: ColumnType<string[], string, string>;
  created_at: ColumnType<Date, Date, never>;
}

export interface OAuthGrantsTable {
  id: string;
  account_id: string;
  partner_id: string | null;
  client_id: string | null;
  scopes: string;
  created_at: ColumnType<Date, Date, never>;
  revoked_at: Date | null;
}

export interface OAuthTokensTable {
  id: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  secret_hash: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  spent_at: Date | null;
}

export interface OAuthCodesTable {
  id: string;
  secret_hash: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  used_at: Date | null;
  grant_id: string | null;
}

export interface AccountOwnersTable {
  account_id: string;
  email: string;
  password_hash: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface WabaTransactionsTable {
  id: string;
  account_id: string;
  channel_id: string | null;
  kind: 'top_up' | 'conversation';
  amount: ColumnType<string | number, number, never>;
  chat_id: string | null;
  created_at: ColumnType<Date, Date, never>;
}
