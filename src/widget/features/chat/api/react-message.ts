import { useMutation } from '@tanstack/react-query';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';

/** PUT /bff/messages/{id}/reaction: the account's reaction to a message (null takes it back). */
export const reactToMessage = (client: BffClient, messageId: string, emoji: string | null): Promise<{ message_id: string }> =>
  client.request<{ message_id: string }>('PUT', `/messages/${encodeURIComponent(messageId)}/reaction`, { emoji });

/** Sets or takes back the agent's reaction; the history shows it when `message.reaction` comes back with the stream. */
export function useReactToMessage() {
  const { client } = useEmbed();
  return useMutation({ mutationFn: ({ messageId, emoji }: { messageId: string; emoji: string | null }) => reactToMessage(client, messageId, emoji) });
}
