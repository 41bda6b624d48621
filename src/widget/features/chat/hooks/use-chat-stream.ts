import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { useEmbed, type EmbedContext } from '@/lib/embed-context.tsx';
import { Freshness } from '@/lib/event-stream.ts';
import { applyToList } from '../api/chat-list-cache.ts';
import { channelKeys } from '../api/get-channels.ts';
import { chatListKeys, type ChatListData } from '../api/get-chats.ts';
import { getMessages, historyKeys, historyPage, historyPageSizes, type HistoryMeta } from '../api/get-messages.ts';
import { unansweredKeys } from '../api/get-unanswered.ts';
import { appendMessage, findMessage, keepUnsent, mergeNewest, patchMessage, pendingPatches, type HistoryData } from '../api/history-cache.ts';
import { fromAddEvent, patchOfEvent } from '../store/message.ts';
import { sameChat } from '../store/scope.ts';

/** How long events for chats the list cannot place are gathered before the lists are read again. */
const REREAD_AFTER_MS = 400;

const histories = (queryClient: QueryClient): Query<HistoryData>[] =>
  queryClient.getQueryCache().findAll({ queryKey: historyKeys.all }) as unknown as Query<HistoryData>[];

/** The newest page of a chat read again and joined with what its history shows. */
async function readNewest(ctx: EmbedContext, queryClient: QueryClient, chatRef: string, mode: 'merge' | 'replace'): Promise<void> {
  const page = historyPage(queryClient, await getMessages(ctx.client, chatRef, { limit: historyPageSizes.newest }));
  queryClient.setQueryData<HistoryData>(historyKeys.chat(chatRef), (data) => {
    if (!data) return data;
    // After a resync the pages read before may have gaps: the history starts again from the newest page.
    return mode === 'merge' ? mergeNewest(data, page) : { pages: [keepUnsent(page, data)], pageParams: [null] };
  });
}

/**
 * Writes the event stream into the query cache: live messages, statuses, edits and deletes into the open
 * histories, and into the chat lists' rows; what a list cannot place makes it read again (throttled, so a
 * steady stream still leads to a read now and then); a resync reads everything shown again.
 */
export function useChatStream(): void {
  const ctx = useEmbed();
  const queryClient = useQueryClient();
  useEffect(() => {
    const counts = new Freshness();
    // Statuses name only the message. One of a message not shown (another agent's send: no `message.add` comes
    // for it) is followed by its chat's unanswered update with the same id and `.unanswered`: that chat's newest
    // page is read again.
    const unplaced = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const rereadLists = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: chatListKeys.all });
      }, REREAD_AFTER_MS);
    };

    const onHistory = (event: StreamEvent) => {
      if (event.name === 'message.add') {
        const p = event.payload;
        for (const query of histories(queryClient)) {
          const chat = (query.meta as HistoryMeta | undefined)?.chat;
          if (!chat || !sameChat(chat, { ...p.recipient, channel_id: p.channel_id })) continue;
          queryClient.setQueryData<HistoryData>(query.queryKey, (data) => {
            if (!data) return data;
            const quoted = p.quoted_message_id ? findMessage(data, [`m:${p.quoted_message_id}`]) : undefined;
            // A customer's caption comes naming its file (`caption_of`), and is drawn with it at once (store/captions.ts).
            return appendMessage(data, pendingPatches(queryClient).apply(fromAddEvent(p, quoted)));
          });
        }
        return;
      }
      if (event.name === 'chat.unanswered_update') {
        const cause = event.id.replace(/\.unanswered$/, '');
        const chatRef = event.payload.chat_ref;
        if (unplaced.delete(cause) && queryClient.getQueryData(historyKeys.chat(chatRef))) void readNewest(ctx, queryClient, chatRef, 'merge').catch(() => {});
        return;
      }
      const found = patchOfEvent(event);
      if (!found) return;
      let placed = false;
      for (const query of histories(queryClient)) {
        const data = query.state.data;
        if (!data) continue;
        const next = patchMessage(data, found.keys, found.patch);
        if (!next.found) continue;
        placed = true;
        queryClient.setQueryData(query.queryKey, next.data);
      }
      if (placed) return;
      pendingPatches(queryClient).keep(found.keys, found.patch);
      if (event.name === 'message.status_update') {
        unplaced.add(event.id);
        if (unplaced.size > 100) unplaced.delete(unplaced.values().next().value!);
      }
    };

    const onLists = (event: StreamEvent) => {
      let placed = true;
      for (const [key, data] of queryClient.getQueriesData<ChatListData>({ queryKey: chatListKeys.all })) {
        // A list still being read may have been read before this event: it is read again.
        if (!data) {
          placed = false;
          continue;
        }
        const change = applyToList(data, event, (ref, position) => counts.isNewer(`${key.join('/')}:${ref}`, position));
        if (change.data !== data) queryClient.setQueryData(key, change.data);
        placed &&= change.placed;
      }
      if (!placed) rereadLists();
      if (event.name === 'chat.unanswered_update') void queryClient.invalidateQueries({ queryKey: unansweredKeys.summary });
    };

    const offEvents = ctx.onEvent((event) => {
      // A channel that changed (went active, was reconnected, added or removed) may now do more or less: the open
      // chat offers what its channel can do now (templates, buttons) without a reload.
      if (event.name.startsWith('channel.') && event.name !== 'channel.qr_update') void queryClient.invalidateQueries({ queryKey: channelKeys.all });
      onHistory(event);
      onLists(event);
    });
    const offResync = ctx.onResync(() => {
      void queryClient.invalidateQueries({ queryKey: chatListKeys.all });
      void queryClient.invalidateQueries({ queryKey: unansweredKeys.summary });
      void queryClient.invalidateQueries({ queryKey: channelKeys.all });
      for (const query of histories(queryClient)) {
        const chatRef = query.queryKey[1] as string;
        if (!chatRef.startsWith('new:')) void readNewest(ctx, queryClient, chatRef, 'replace').catch(() => {});
      }
    });
    return () => {
      offEvents();
      offResync();
      if (timer) clearTimeout(timer);
    };
  }, [ctx, queryClient]);
}
