import type { MessageRef } from '../../../../contract/messages.ts';
import type { BffClient } from '../../../lib/bff-client.ts';

/** PATCH /bff/messages/{id}: a new text, as the session's user; the change comes back as `message.edit`. */
export const editMessage = (client: BffClient, messageId: string, text: string): Promise<MessageRef> =>
  client.request<MessageRef>('PATCH', `/messages/${encodeURIComponent(messageId)}`, { text });

/** DELETE /bff/messages/{id}: deleted for everyone; it stays in the history, marked (`message.delete`). */
export const deleteMessage = (client: BffClient, messageId: string): Promise<MessageRef> =>
  client.request<MessageRef>('DELETE', `/messages/${encodeURIComponent(messageId)}`);
