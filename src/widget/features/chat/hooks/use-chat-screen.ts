import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { ChatType } from '../../../../contract/channels.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { getChats } from '../api/get-chats.ts';
import { historyQuery, type HistoryMeta } from '../api/get-messages.ts';
import { inScope, sameChat } from '../store/scope.ts';
import { searchTermOf, useChatUi, type RequestedChat } from '../store/ui.ts';

/**
 * How a chat gets opened: the agent picks one, the link names an active chat, a card has one chat, the host
 * page says `open_chat`. The host hears `chat_opened` for every chat opened with a messenger id.
 */
export function useChatOpening(chats: readonly BffChat[] | undefined) {
  const ctx = useEmbed();
  const queryClient = useQueryClient();
  const open = useChatUi((s) => s.open);
  const listed = useRef(chats);
  listed.current = chats;

  const announce = useCallback(
    (chat: { channel_id?: string | null | undefined; chat_type: ChatType; chat_id: string | null }) => {
      if (chat.chat_id) ctx.bridge?.post({ type: 'chat_opened', payload: { channel_id: chat.channel_id ?? null, chat_type: chat.chat_type, chat_id: chat.chat_id } });
    },
    [ctx],
  );

  const openChat = useCallback(
    (chat: BffChat) => {
      // The history is asked for at the click, ahead of what the chat's view reads as it mounts (its CRM card).
      void queryClient.prefetchInfiniteQuery({ ...historyQuery(ctx.client, queryClient, chat.chat_ref), meta: { chat } satisfies HistoryMeta });
      open({ kind: 'chat', chat });
      announce(chat);
    },
    [ctx, queryClient, open, announce],
  );

  /**
   * Opens a chat named by the host or the link: the listed one, else the one the server finds, else a new one.
   * What a card preselects is opened quietly, and only while nothing else was opened meanwhile.
   */
  const openRequested = useCallback(
    async (wanted: RequestedChat, by: 'host' | 'card' = 'host') => {
      if (!inScope(ctx.session, wanted)) return;
      const find = (candidates: readonly BffChat[] | undefined) => candidates?.find((c) => sameChat(c, wanted));
      const chat =
        find(listed.current) ??
        (await queryClient
          .fetchQuery({ queryKey: ['chats', 'find', wanted.chat_type, searchTermOf(wanted)], queryFn: () => getChats(ctx.client, { q: searchTermOf(wanted), limit: 100 }), staleTime: 0 })
          .then((page) => find(page.chats), () => undefined));
      if (by === 'card' && useChatUi.getState().opened) return;
      open(chat ? { kind: 'chat', chat } : { kind: 'new', chat: wanted });
      if (by === 'host') announce({ ...wanted, chat_id: wanted.chat_id ?? null, channel_id: wanted.channel_id ?? chat?.channel_id ?? null });
    },
    [ctx, queryClient, open, announce],
  );

  useEffect(
    () =>
      ctx.onHostMessage((message) => {
        if (message.type === 'open_chat') void openRequested(message.payload);
      }),
    [ctx, openRequested],
  );

  // What the link preselected: its active chat, or the only chat of a card.
  const preselected = useRef(false);
  const loaded = chats !== undefined;
  useEffect(() => {
    if (preselected.current || !loaded) return;
    preselected.current = true;
    const active = ctx.session.active_chat;
    if (active) {
      void openRequested({ channel_id: active.channel_id, chat_type: active.chat_type, chat_id: active.chat_id });
    } else if (ctx.session.scope === 'card' && ctx.session.chats.length === 1) {
      // The card's one contact: its chat when there is one, else a new conversation the agent may start.
      const only = ctx.session.chats[0]!;
      if (useChatUi.getState().opened) return;
      if (listed.current?.length === 1) open({ kind: 'chat', chat: listed.current[0]! });
      else if (only.chat_id || only.username || only.phone)
        void openRequested({ chat_type: only.chat_type, chat_id: only.chat_id, username: only.username, phone: only.phone, contact_name: only.contact_name }, 'card');
    }
  }, [ctx, loaded, openRequested, open]);

  // A new conversation becomes a listed chat once its first message made the gateway create it.
  const opened = useChatUi((s) => s.opened);
  useEffect(() => {
    if (opened?.kind !== 'new') return;
    const chat = chats?.find((c) => sameChat(c, opened.chat));
    if (chat) open({ kind: 'chat', chat });
  }, [opened, chats, open]);

  return { openChat };
}
