import type { ColumnType, Generated } from 'kysely';
import type { CrmChatAssignmentsTable, CrmContactCardsTable, CrmContactsTable, CrmDealsTable, CrmPipelinesTable, CrmSettingsTable, CrmUserRolesTable, CrmUsersTable } from './schema-crm.ts';
import type { WebhookSubscriptionsTable, WebhookV3SettingsTable, EventsTable, WebhookSettingsTable, WebhookDeliveriesTable, WebhookAttemptsTable } from './schema-webhooks.ts';
import type { AccountOwnersTable, OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable, OAuthTokensTable, PartnersTable, WabaTransactionsTable } from './schema-identity.ts';

export type * from './schema-crm.ts';
export type * from './schema-identity.ts';
export type * from './schema-webhooks.ts';

/** Table shapes as Kysely sees them. Migrations are the source of truth; keep these in step. */
export interface AccountsTable {
  id: string;
  name: string;
  created_at: ColumnType<Date, Date, never>;
  /** The 8-digit id partners know the account by (drawn from a sequence when not given). */
  public_id: ColumnType<number, number | undefined, never>;
  partner_id: ColumnType<string | null, string | null | undefined, string | null>;
  lang: ColumnType<string | null, string | null | undefined, string | null>;
  currency: ColumnType<string | null, string | null | undefined, string | null>;
  country: ColumnType<string | null, string | null | undefined, string | null>;
  timezone: ColumnType<number | null, number | null | undefined, number | null>;
  /** pg returns bigint as a string. */
  waba_balance: ColumnType<string | number, number | undefined, number>;
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
  /** What the channel's bot was last registered with on its platform (a hash: hook address, update kinds, secret). */
  hook_fingerprint: string | null;
  /** Until when a process that is registering the channel's hook again holds it. */
  hook_lease_until: Date | null;
  /** The platform's account the channel's own belongs to (a WhatsApp number's WhatsApp Business Account). */
  messenger_account_id: ColumnType<string | null, string | null | undefined, string | null | undefined>;
}

/** Who is behind a chat where the platform addresses people by an id of its own (Instagram's IGSID behind an account name). */
export interface MessengerPeersTable {
  channel_id: string;
  peer_id: string;
  handle: string | null;
  name: string | null;
  checked_at: Date;
}

export interface SandboxPhonesTable {
  account_id: string;
  phone: string;
  two_factor_password: string | null;
}

export interface ChatsTable {
  id: string;
  account_id: string;
  channel_id: string;
  chat_type: string;
  chat_id: string | null;
  username: string | null;
  phone: string | null;
  name: string | null;
  unanswered: ColumnType<number, number | undefined, number>;
  avatar_url: string | null;
  last_message_at: Date | null;
  created_at: ColumnType<Date, Date, never>;
}

export interface MessagesTable {
  id: string;
  seq: ColumnType<string, never, never>;
  request_id: string | null;
  account_id: string;
  channel_id: string;
  chat_ref: string;
  direction: 'inbound' | 'outbound';
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
  reason: string | null;
  text: string | null;
  attachment: ColumnType<unknown, string | null, string | null>;
  template: ColumnType<unknown, string | null, string | null>;
  keyboard: ColumnType<unknown, string | null, string | null>;
  quoted_message_id: string | null;
  crm_user_id: string | null;
  reset_unanswered: boolean;
  messenger_message_id: string | null;
  created_at: ColumnType<Date, Date, never>;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  edited_at: Date | null;
  deleted_at: Date | null;
  send_attempts: ColumnType<number, number | undefined, number>;
  send_after: Date | null;
  send_lease_until: Date | null;
  /** Why a send waits (pacing of a personal channel), until `send_after`. */
  hold_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ChannelPacingTable {
  channel_id: string;
  overrides: ColumnType<unknown, string | null, string | null>;
  linked_at: Date;
  day: string;
  sent_today: number;
  first_contacts_today: number;
  next_send_at: Date | null;
  burst: number;
  gap_ms: number;
  slow_until: Date | null;
  slow_reason: string | null;
  version: number;
}

export interface SandboxReceivedTable {
  request_id: string;
  channel_id: string;
  messenger_message_id: string;
  chat_id: string;
  received_at: Date;
}

export interface SandboxCustomersTable {
  channel_id: string;
  chat_type: string;
  chat_id: string;
  wrote_first: ColumnType<boolean, boolean | undefined, boolean>;
  state: ColumnType<'ok' | 'blocked' | 'missing', 'ok' | 'blocked' | 'missing' | undefined, 'ok' | 'blocked' | 'missing'>;
  last_inbound_at: Date | null;
}

export interface EmbeddingOriginsTable {
  account_id: string;
  origin: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface EmbedSessionsTable {
  id: string;
  account_id: string;
  link_id: string;
  secret_hash: string;
  kind: 'chats' | 'channels';
  user_id: string | null;
  user_name: string | null;
  scope: 'global' | 'card' | null;
  chats: ColumnType<unknown, string, never>;
  active_chat: ColumnType<unknown, string | null, never>;
  transport: string | null;
  channel_id: string | null;
  options: ColumnType<unknown, string, never>;
  use_events: ColumnType<unknown, string | null, never>;
  client_type: string | null;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  max_expires_at: ColumnType<Date, Date, never>;
  revoked_at: Date | null;
  minted_by: ColumnType<string | null, string | null, never>;
  /** The OAuth scopes of the token that made the session's link, comma-separated; null for every scope. */
  scopes: ColumnType<string | null, string | null, never>;
}

export interface EndedGrantsTable {
  grant_id: string;
  ended_at: ColumnType<Date, Date, never>;
}

export interface GroupMembersTable {
  chat_ref: string;
  member_id: string;
  name: string | null;
  avatar_url: string | null;
  status: 'in_group' | 'invited' | 'unknown' | 'deleted' | 'not_exists';
}

export interface TemplatesTable {
  id: string;
  account_id: string;
  channel_id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface ExportsTable {
  id: string;
  account_id: string;
  channel_id: string | null;
  start_at: Date;
  end_at: Date;
  status: 'pending' | 'processing' | 'done' | 'webhook_failed';
  row_count: number | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  completed_at: Date | null;
  expires_at: Date | null;
}

export interface UploadsTable {
  id: string;
  account_id: string;
  name: string;
  mimetype: string;
  size: number;
  sha1: string;
  /** Null where the bytes are kept on disk (the embedded database). */
  content: Uint8Array | null;
  created_at: Date;
  /** A customer's file from a messenger (migration 0031): not counted in the daily quota. */
  received: ColumnType<boolean, boolean | undefined, never>;
}

/** An emoji reaction to a message, one per reactor (`agent`, or the messenger's id of a customer) (migration 0041). */
export interface MessageReactionsTable {
  message_id: string;
  reactor: string;
  emoji: string;
  reacted_at: Date;
}

/** An account's saved answer, inserted in the chat frame by its shortcut (migration 0040). */
export interface QuickRepliesTable {
  id: Generated<string>;
  account_id: string;
  shortcut: string;
  text: string;
  created_at: Date;
  updated_at: Date;
}

/** A long-lived connection to a messenger, and the process that holds its lease (migration 0024). */
export interface SessionsTable {
  channel_id: string;
  transport: string;
  owner: string | null;
  lease_until: Date | null;
  /** When the current holder took the session: sends claimed before then were a former holder's. */
  held_since: ColumnType<Date | null, never, never>;
  generation: ColumnType<string, never, never>;
  created_at: ColumnType<Date, never, never>;
  /** A logout of the device was asked for: the holder logs out, then ends the session. */
  logout_requested: ColumnType<boolean, boolean | undefined, boolean>;
}

/** A session's state, one sealed value per key. */
export interface SessionStateTable {
  channel_id: string;
  key: string;
  value: string;
}

export interface DatabaseSchema {
  group_members: GroupMembersTable;
  chats: ChatsTable;
  messages: MessagesTable;
  message_reactions: MessageReactionsTable;
  quick_replies: QuickRepliesTable;
  sandbox_received: SandboxReceivedTable;
  sandbox_customers: SandboxCustomersTable;
  embedding_origins: EmbeddingOriginsTable;
  embed_sessions: EmbedSessionsTable;
  ended_grants: EndedGrantsTable;
  crm_users: CrmUsersTable;
  crm_contacts: CrmContactsTable;
  crm_settings: CrmSettingsTable;
  crm_user_roles: CrmUserRolesTable;
  crm_chat_assignments: CrmChatAssignmentsTable;
  crm_contact_cards: CrmContactCardsTable;
  crm_deals: CrmDealsTable;
  crm_pipelines: CrmPipelinesTable;
  channels: ChannelsTable;
  messenger_peers: MessengerPeersTable;
  sandbox_phones: SandboxPhonesTable;
  sandbox_revoked_tokens: { token_hash: string };
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  events: EventsTable;
  templates: TemplatesTable;
  exports: ExportsTable;
  webhook_settings: WebhookSettingsTable;
  webhook_v3_settings: WebhookV3SettingsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  uploads: UploadsTable;
  partners: PartnersTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_tokens: OAuthTokensTable;
  oauth_codes: OAuthCodesTable;
  account_owners: AccountOwnersTable;
  waba_transactions: WabaTransactionsTable;
  sessions: SessionsTable;
  channel_pacing: ChannelPacingTable;
  session_state: SessionStateTable;
}
