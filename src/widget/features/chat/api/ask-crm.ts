import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { CrmCreateAsked, CrmCreateRequest } from '../../../../contract/crm-entities.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import type { OutgoingMessage } from '@/lib/host-bridge.ts';
import { chatCrmKeys } from './get-chat-crm.ts';

export type CrmKind = 'contact' | 'deal';
export type CrmAsked = Static<typeof CrmCreateAsked>;

/** POST /bff/crm/contacts or /bff/crm/deals: the gateway sends `crm_entities.<kind>_add` for the CRM to create one. */
export const askCrmToCreate = (client: BffClient, kind: CrmKind, body: CrmCreateRequest): Promise<CrmAsked> =>
  client.request<CrmAsked>('POST', `/crm/${kind}s`, body);

/** The name the agent suggests: the chat's shown name, when it fits the CRM's limit. */
export function suggestedName(chat: Pick<BffChat, 'name'>): string | undefined {
  const name = chat.name?.trim();
  return name ? name.slice(0, 200) : undefined;
}

/** What the host page hears when the agent asks for a contact (the bridge's `contact_to_create`). */
export function contactToCreate(chat: BffChat): OutgoingMessage | null {
  if (!chat.chat_id) return null;
  const name = suggestedName(chat) ?? null;
  return {
    type: 'contact_to_create',
    payload: { channel_id: chat.channel_id, chat_type: chat.chat_type, chat_id: chat.chat_id, phone: chat.phone, username: chat.username, name },
  };
}

/** Asks the CRM to create a contact or a deal for the chat; the panel reads the chat's CRM card again after. */
export function useAskCrm(kind: CrmKind, chat: BffChat) {
  const { client, bridge } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => askCrmToCreate(client, kind, { chat_ref: chat.chat_ref, name: suggestedName(chat) }),
    onSuccess: () => {
      const message = kind === 'contact' ? contactToCreate(chat) : null;
      if (message) bridge?.post(message);
      return queryClient.invalidateQueries({ queryKey: chatCrmKeys.chat(chat.chat_ref) });
    },
  });
}
