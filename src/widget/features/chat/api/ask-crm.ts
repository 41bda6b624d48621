import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { CrmCreateAsked, CrmCreateRequest, StoredDeal } from '../../../../contract/crm-entities.ts';
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

/** What the host page hears when the agent asks for a deal (`deal_to_create`, and `WZ_CREATE_ENTITY` for a v3 CRM). */
export function dealToCreate(chat: BffChat, userId: string | null): OutgoingMessage | null {
  if (!chat.chat_id) return null;
  return { type: 'deal_to_create', payload: { channel_id: chat.channel_id, chat_type: chat.chat_type, chat_id: chat.chat_id, user_id: userId } };
}

/** Asks the CRM to create a contact or a deal for the chat; the panel reads the chat's CRM card again after. */
export function useAskCrm(kind: CrmKind, chat: BffChat) {
  const { client, bridge, session } = useEmbed();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => askCrmToCreate(client, kind, { chat_ref: chat.chat_ref, name: suggestedName(chat) }),
    onSuccess: () => {
      const message = kind === 'contact' ? contactToCreate(chat) : dealToCreate(chat, session.user?.id ?? null);
      if (message) bridge?.post(message);
      return queryClient.invalidateQueries({ queryKey: chatCrmKeys.chat(chat.chat_ref) });
    },
  });
}

/** Tells the host page the agent opened one of the chat's deals (`deal_opened`, and `WZ_OPEN_ENTITY` for a v3 CRM). */
export function useDealOpened(chat: BffChat): (deal: StoredDeal) => void {
  const { bridge, session } = useEmbed();
  return (deal) => {
    if (!chat.chat_id) return;
    const userId = session.user?.id ?? null;
    const { id, name, uri, closed } = deal;
    bridge?.post({ type: 'deal_opened', payload: { channel_id: chat.channel_id, chat_type: chat.chat_type, chat_id: chat.chat_id, user_id: userId, deal: { id, name, uri, closed } } });
  };
}
