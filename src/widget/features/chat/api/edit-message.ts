import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageRef } from '../../../../contract/messages.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { updateMessages, type HistoryData } from './history-cache.ts';

/** PATCH /bff/messages/{id}: a new text, as the session's user; the change comes back as `message.edit`. */
export const editMessage = (client: BffClient, messageId: string, text: string): Promise<MessageRef> =>
  client.request<MessageRef>('PATCH', `/messages/${encodeURIComponent(messageId)}`, { text });

/**
 * Edits a message of the history under `key`: the new text shows at once and goes back if the gateway refuses;
 * the `edited` mark comes with the stream's `message.edit`.
 */
export function useEditMessage(key: readonly unknown[]) {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  const setText = (messageId: string, text: string | null) =>
    queryClient.setQueryData<HistoryData>(key, (data) => (data ? updateMessages(data, (m) => m.message_id === messageId, (m) => ({ ...m, text })) : data));
  return useMutation({
    mutationFn: ({ messageId, text }: { messageId: string; text: string; before: string | null }) => editMessage(client, messageId, text),
    onMutate: ({ messageId, text }) => setText(messageId, text),
    onError: (_err, { messageId, before }) => setText(messageId, before),
  });
}
