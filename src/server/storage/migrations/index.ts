import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001_foundation.ts';
import * as channels from './0002_channels.ts';
import * as messages from './0003_messages.ts';
import * as embedding from './0005_embedding.ts';
import * as templatesExports from './0006_templates_exports.ts';
import * as webhookDeliveries from './0004_webhook_deliveries.ts';
import * as chatList from './0007_chat_list.ts';
import * as eventOutbox from './0008_event_outbox.ts';
import * as sendQueue from './0009_send_queue.ts';
import * as dispatchOnce from './0010_dispatch_once.ts';
import * as eventStream from './0011_event_stream.ts';
import * as unindexedRequestId from './0012_unindexed_request_id.ts';
import * as attemptLogUnchecked from './0013_attempt_log_unchecked.ts';
import * as retryDueIndex from './0014_retry_due_index.ts';
import * as followUpBounds from './0015_follow_up_bounds.ts';
import * as messengerMessageIndex from './0016_messenger_message_index.ts';
import * as hookRegistrations from './0017_hook_registrations.ts';
import * as uploads from './0018_uploads.ts';
import * as messengerPeers from './0019_messenger_peers.ts';
import * as messengerAccounts from './0020_messenger_accounts.ts';
import * as timeOrderedIds from './0021_time_ordered_ids.ts';
import * as revocationAndSandboxPhones from './0023_revocation_and_sandbox_phones.ts';
import * as sessions from './0024_sessions.ts';
import * as partnersOauth from './0026_partners_oauth.ts';
import * as accountProfiles from './0027_account_profiles.ts';
import * as crmRights from './0028_crm_rights.ts';
import * as crmEntities from './0029_crm_entities.ts';
import * as sessionHeldSince from './0030_session_held_since.ts';
import * as receivedUploads from './0031_received_uploads.ts';
import * as messageTextSearch from './0032_message_text_search.ts';
import * as lighterSendWrites from './0033_lighter_send_writes.ts';
import * as eventsKeyedByPosition from './0034_events_keyed_by_position.ts';
import * as sessionLogout from './0035_session_logout.ts';
import * as frameSessionScopes from './0036_frame_session_scopes.ts';
import * as v3Webhooks from './0037_v3_webhooks.ts';
import * as channelPacing from './0038_channel_pacing.ts';
import * as quickReplies from './0040_quick_replies.ts';
import * as messageReactions from './0041_message_reactions.ts';

/** Migrations are listed here, in order, so they are bundled with the code rather than read from disk. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_channels': channels,
  '0003_messages': messages,
  '0005_embedding': embedding,
  '0006_templates_exports': templatesExports,
  '0004_webhook_deliveries': webhookDeliveries,
  '0007_chat_list': chatList,
  '0008_event_outbox': eventOutbox,
  '0009_send_queue': sendQueue,
  '0010_dispatch_once': dispatchOnce,
  '0011_event_stream': eventStream,
  '0012_unindexed_request_id': unindexedRequestId,
  '0013_attempt_log_unchecked': attemptLogUnchecked,
  '0014_retry_due_index': retryDueIndex,
  '0015_follow_up_bounds': followUpBounds,
  '0016_messenger_message_index': messengerMessageIndex,
  '0017_hook_registrations': hookRegistrations,
  '0018_uploads': uploads,
  '0019_messenger_peers': messengerPeers,
  '0020_messenger_accounts': messengerAccounts,
  '0021_time_ordered_ids': timeOrderedIds,
  '0023_revocation_and_sandbox_phones': revocationAndSandboxPhones,
  '0024_sessions': sessions,
  '0026_partners_oauth': partnersOauth,
  '0027_account_profiles': accountProfiles,
  '0028_crm_rights': crmRights,
  '0029_crm_entities': crmEntities,
  '0030_session_held_since': sessionHeldSince,
  '0031_received_uploads': receivedUploads,
  '0032_message_text_search': messageTextSearch,
  '0033_lighter_send_writes': lighterSendWrites,
  '0034_events_keyed_by_position': eventsKeyedByPosition,
  '0035_session_logout': sessionLogout,
  '0036_frame_session_scopes': frameSessionScopes,
  '0037_v3_webhooks': v3Webhooks,
  '0038_channel_pacing': channelPacing,
  '0040_quick_replies': quickReplies,
  '0041_message_reactions': messageReactions,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
