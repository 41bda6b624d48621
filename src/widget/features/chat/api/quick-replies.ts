import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuickReply, QuickReplyInput, QuickReplyList } from '../../../../contract/bff-quick-replies.ts';
import { useEmbed } from '@/lib/embed-context.tsx';

const key = ['quick-replies'] as const;

/**
 * GET /bff/quick-replies: the account's saved answers, read when the agent first types `/` (or opens the dialog),
 * and kept a minute: another agent's change shows at the next search after that, or at once after one's own.
 */
export function useQuickReplies(enabled: boolean) {
  const { client } = useEmbed();
  return useQuery({ queryKey: key, queryFn: () => client.request<QuickReplyList>('GET', '/quick-replies'), enabled, staleTime: 60_000 });
}

/** Adds (no id) or changes a quick reply; the list is read again after. */
export function useSaveQuickReply() {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: QuickReplyInput }) =>
      id ? client.request<QuickReply>('PUT', `/quick-replies/${encodeURIComponent(id)}`, input) : client.request<QuickReply>('POST', '/quick-replies', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteQuickReply() {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.request<null>('DELETE', `/quick-replies/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
