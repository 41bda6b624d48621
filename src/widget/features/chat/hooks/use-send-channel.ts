import { useQuery } from '@tanstack/react-query';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useChannels } from '../api/get-channels.ts';
import { getChats } from '../api/get-chats.ts';
import { sameChat } from '../store/scope.ts';
import { searchTermOf, useChatUi, type RequestedChat } from '../store/ui.ts';

const EMPTY: BffChannel[] = [];

/**
 * For a chat nobody has written to through a channel yet (a card names only the contact): the account's active
 * channels that can reach it, and the one to send through: the agent's pick, else the one the customer last wrote
 * through (their other chats), else the only one there is.
 */
export function useSendChannel(wanted: RequestedChat | null) {
  const { client } = useEmbed();
  const picked = useChatUi((s) => s.channelPick);
  const pick = useChatUi((s) => s.pickChannel);
  const channels = useChannels().data ?? EMPTY;
  const open = wanted !== null && !wanted.channel_id;
  const reachable = open ? channels.filter((c) => c.status === 'active' && c.capabilities.chat_types.includes(wanted.chat_type)) : EMPTY;
  const theirs = useQuery({
    queryKey: ['chats', 'find', wanted?.chat_type, wanted ? searchTermOf(wanted) : null],
    queryFn: () => getChats(client, { q: searchTermOf(wanted!), limit: 100 }),
    enabled: open,
    select: (page): BffChat[] =>
      page.chats.filter((c) => sameChat({ ...c, channel_id: null }, wanted!)).sort((a, b) => Date.parse(b.last_activity_at) - Date.parse(a.last_activity_at)),
  }).data;
  const lastUsed = theirs?.find((c) => reachable.some((r) => r.channel_id === c.channel_id))?.channel_id;
  const chosen = [picked, lastUsed, reachable.length === 1 ? reachable[0]!.channel_id : undefined].find((id) => id && reachable.some((r) => r.channel_id === id)) ?? null;
  return { reachable, chosen: open ? chosen : (wanted?.channel_id ?? null), pick, open };
}
