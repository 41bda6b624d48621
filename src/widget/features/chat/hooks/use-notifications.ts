import { useEffect } from 'react';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useCurrentLang } from '@/lib/i18n.ts';
import { notifyWords } from '../notify-words.ts';
import { notifySettings } from '../store/notify-settings.ts';
import { titleWithCount, unreadChatOf, unreadKey, unreadTotals, useUnread } from '../store/unread.ts';
import { useChatUi, type Opened } from '../store/ui.ts';

type Added = Extract<StreamEvent, { name: 'message.add' }>;

const openedKey = (opened: Opened | null): string | null => (opened ? unreadKey(opened.chat) : null);

/** The agent sees the chat: it is open and the frame's page is in front. */
const looking = (key: string) => openedKey(useChatUi.getState().opened) === key && document.visibilityState === 'visible';

/** A browser notification for a message come in, when the agent allowed them (clicking it opens the frame's tab). */
function notify(event: Added, lang: ReturnType<ReturnType<typeof useCurrentLang>>) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const p = event.payload;
  const w = notifyWords[lang];
  const who = p.sender?.name ?? p.recipient.name ?? p.sender?.username ?? p.recipient.username ?? p.recipient.phone ?? w.newMessage;
  const body = p.text ?? (p.attachment ? `${w.file}: ${p.attachment.name ?? ''}`.trim() : '');
  try {
    const shown = new Notification(who, { body, tag: unreadKey({ ...p.recipient, channel_id: p.channel_id }) ?? undefined });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the title and the host's badge still tell.
  }
}

/**
 * New messages while the agent is not looking: counted as unread per chat (opening the chat reads it), the count
 * in the frame's title, a sound and a browser notification when the agent turned them on, and the count posted to
 * the host (`unread_count_changed`).
 */
export function useNotifications(baseTitle: string): void {
  const ctx = useEmbed();
  const currentLang = useCurrentLang();
  const { session } = ctx;
  const storageKey = `gw-unread:${session.account_id}:${session.user?.id ?? ''}`;

  useEffect(() => {
    if (typeof localStorage === 'undefined') return;
    useUnread.getState().attach(storageKey);
    // Another frame of the same agent (a card's beside the inbox) counted or read a chat: this one follows, and
    // reads at once the chat it has open in view.
    const follow = (e: StorageEvent) => {
      if (e.key !== storageKey) return;
      useUnread.getState().attach(storageKey);
      const key = openedKey(useChatUi.getState().opened);
      if (key && looking(key)) useUnread.getState().read(key);
    };
    window.addEventListener('storage', follow);
    return () => {
      window.removeEventListener('storage', follow);
      useUnread.getState().attach(null);
    };
  }, [storageKey]);

  useEffect(
    () =>
      ctx.onEvent((event) => {
        if (event.name !== 'message.add') return;
        // A file's caption was counted (and told) with its file.
        const key = unreadChatOf(event.payload);
        if (!key || looking(key)) return;
        useUnread.getState().add(key);
        const { sound, desktop } = notifySettings().getState();
        // The chime's code is fetched the first time it plays.
        if (sound) void import('./chime.ts').then((m) => m.playChime());
        if (desktop) notify(event, currentLang());
      }),
    [ctx, currentLang],
  );

  // Opening a chat reads it; so does coming back to the tab where it is open.
  const opened = useChatUi((s) => s.opened);
  useEffect(() => {
    const key = openedKey(opened);
    if (!key) return;
    const read = () => document.visibilityState === 'visible' && useUnread.getState().read(key);
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [opened]);

  // Two numbers, not the counts: a chat counted again, or read, draws nothing here unless a total changes.
  const total = useUnread((s) => unreadTotals(s.counts).total);
  const chats = useUnread((s) => unreadTotals(s.counts).chats);
  useEffect(() => {
    document.title = titleWithCount(baseTitle, total);
  }, [baseTitle, total]);
  useEffect(() => {
    ctx.bridge?.post({ type: 'unread_count_changed', payload: { total, chats } });
  }, [ctx, total, chats]);
}
