import type { ColumnType } from 'kysely';

/** The CRM's own records the gateway keeps for the frames: users, their roles, contacts, deals and pipelines. */

export interface CrmUsersTable {
  account_id: string;
  id: string;
  name: string;
  phone: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface CrmContactsTable {
  account_id: string;
  chat_type: string;
  key_kind: 'chat_id' | 'username' | 'phone';
  key_value: string;
  name: string;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface CrmSettingsTable {
  account_id: string;
  hide_phone_numbers_for_user_ids: ColumnType<unknown, string, string>;
  push_input_output_message_events_for_managers: boolean;
  updated_at: Date;
}

export interface CrmUserRolesTable {
  account_id: string;
  channel_id: string;
  user_id: string;
  role: 'seller' | 'manager' | 'auditor';
  allow_get_new_clients: boolean;
}

export interface CrmChatAssignmentsTable {
  chat_ref: string;
  account_id: string;
  user_id: string;
  assigned_at: Date;
}

export interface CrmContactCardsTable {
  account_id: string;
  id: string;
  responsible_user_id: string | null;
  name: string;
  contact_data: ColumnType<unknown, string, string>;
  uri: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface CrmDealsTable {
  account_id: string;
  id: string;
  responsible_user_id: string | null;
  name: string;
  uri: string | null;
  contacts: ColumnType<unknown, string, string>;
  closed: boolean;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface CrmPipelinesTable {
  account_id: string;
  id: string;
  name: string;
  stages: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}
