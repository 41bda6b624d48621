import { useCallback, useEffect, useRef, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { ChatType } from '../../../../contract/channels.ts';
import { getChats } from '../api/get-chats.ts';
import type { ChatContext } from '../context.ts';
import { inScope, sameChat } from '../store/scope.ts';
import { useChatList } from './use-chat-list.ts';

/** A chat the host (or the link) asked for by the messenger's id. */
export interface RequestedChat {
  channel_id?: string | undefined;
  chat_type: ChatType;
  chat_id: string;
}

/** The open conversation: a listed chat, or one asked for that has no history yet (the agent may write first). */
export type Opened = { kind: 'chat'; chat: BffChat } | { kind: 'new'; chat: RequestedChat };

/**
 * The chat screen's state: the list, which chat is open, and how a chat gets opened (the agent picks one, the
 * link names an active chat, a card has one chat, the host page says `open_chat`). The host hears `chat_opened`
 * for every chat opened with a messenger id.
 */
export function useChatScreen(ctx: ChatContext) {
  const list = useChatList(ctx);
  const [opened, setOpened] = useState<Opened | null>(null);
  const chats = useRef(list.state.chats);
  chats.current = list.state.chats;

  const announce = useCallback(
    (chat: { channel_id?: string | null | undefined; chat_type: ChatType; chat_id: string | null }) => {
      if (chat.chat_id) ctx.bridge?.post({ type: 'chat_opened', payload: { channel_id: chat.channel_id ?? null, chat_type: chat.chat_type, chat_id: chat.chat_id } });
    },
    [ctx],
  );

  const openChat = useCallback(
    (chat: BffChat) => {
      setOpened({ kind: 'chat', chat });
      announce(chat);
    },
    [announce],
  );

  /** Opens a chat named by the host or the link: the listed one, else the one the server finds, else a new one. */
  const openRequested = useCallback(
    async (wanted: RequestedChat) => {
      if (!inScope(ctx.session, wanted)) return;
      const find = (candidates: readonly BffChat[]) => candidates.find((c) => sameChat(c, wanted));
      let chat = find(chats.current);
      if (!chat) chat = await getChats(ctx.client, { q: wanted.chat_id, limit: 100 }).then((page) => find(page.chats), () => undefined);
      setOpened(chat ? { kind: 'chat', chat } : { kind: 'new', chat: wanted });
      announce({ ...wanted, channel_id: wanted.channel_id ?? chat?.channel_id ?? null });
    },
    [ctx, announce],
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
  const { phase } = list.state;
  useEffect(() => {
    if (preselected.current || phase !== 'ready') return;
    preselected.current = true;
    const active = ctx.session.active_chat;
    if (active) {
      void openRequested({ channel_id: active.channel_id, chat_type: active.chat_type, chat_id: active.chat_id });
    } else if (ctx.session.scope === 'card' && ctx.session.chats.length === 1 && chats.current.length === 1) {
      setOpened((now) => now ?? { kind: 'chat', chat: chats.current[0]! });
    }
  }, [ctx, phase, openRequested]);

  // A new conversation becomes a listed chat once its first message made the gateway create it.
  useEffect(() => {
    if (opened?.kind !== 'new') return;
    const chat = list.state.chats.find((c) => sameChat(c, opened.chat));
    if (chat) setOpened({ kind: 'chat', chat });
  }, [opened, list.state.chats]);

  const close = useCallback(() => setOpened(null), []);
  return { list, opened, openChat, close };
}
