import { useQuery } from '@tanstack/react-query';
import type { Contact, ContactKey } from '../../../../contract/contacts.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import type { NamedChat } from '../store/scope.ts';

/** The one key the gateway files a contact under: the messenger's id, else the username, else the phone. */
const keyOf = (chat: NamedChat): ContactKey | null =>
  chat.chat_id
    ? ({ chat_type: chat.chat_type, chat_id: chat.chat_id } as ContactKey)
    : chat.username
      ? ({ chat_type: chat.chat_type, username: chat.username } as ContactKey)
      : chat.phone
        ? ({ chat_type: chat.chat_type, phone: chat.phone } as ContactKey)
        : null;

/**
 * POST /bff/contacts/lookup: the CRM's name for a contact nobody has written to yet (a card's link names it, or
 * POST /v2/contacts did), so a chat opened before its first message is shown by that name, not by a number.
 */
export function useContactName(chat: NamedChat | null): string | null {
  const { client } = useEmbed();
  const key = chat ? keyOf(chat) : null;
  return (
    useQuery({
      queryKey: ['contacts', 'name', key],
      queryFn: async () => (await client.request<Contact[]>('POST', '/contacts/lookup', { chats: [key] }))[0]?.name ?? null,
      enabled: key !== null,
      staleTime: Infinity,
    }).data ?? null
  );
}
