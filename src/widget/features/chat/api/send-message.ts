import type { SendMessageBody, SendMessageResult } from '../../../../contract/messages.ts';
import type { BffClient } from '../../../lib/bff-client.ts';

/** POST /bff/messages: sends as the session's user (the server sets the author). */
export const sendMessage = (client: BffClient, body: Omit<SendMessageBody, 'crm_user_id'>): Promise<SendMessageResult> =>
  client.request<SendMessageResult>('POST', '/messages', body);
