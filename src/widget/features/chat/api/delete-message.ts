import { useMutation } from '@tanstack/react-query';
import type { MessageRef } from '../../../../contract/messages.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';

/** DELETE /bff/messages/{id}: deleted for everyone; it stays in the history, marked (`message.delete`). */
export const deleteMessage = (client: BffClient, messageId: string): Promise<MessageRef> =>
  client.request<MessageRef>('DELETE', `/messages/${encodeURIComponent(messageId)}`);

/** Deletes a message; the mark comes with the stream, like a delete made anywhere else. */
export function useDeleteMessage() {
  const { client } = useEmbed();
  return useMutation({ mutationFn: (messageId: string) => deleteMessage(client, messageId) });
}
