import { lazy, Suspense } from 'react';
import { ConnectionBanner } from '@/components/ui/ConnectionBanner.tsx';
import { useFrameOptions } from '@/lib/frame-options.tsx';
import { useWords } from '@/lib/i18n.ts';
import { useChatList } from '../api/get-chats.ts';
import { useCapabilities } from '../api/get-channels.ts';
import { useChatOpening } from '../hooks/use-chat-screen.ts';
import { useChatStream } from '../hooks/use-chat-stream.ts';
import { useNotifications } from '../hooks/use-notifications.ts';
import { useUnansweredBadge } from '../hooks/use-unanswered-badge.ts';
import { openedKey, useChatUi } from '../store/ui.ts';
import { words } from '../words.ts';
import { ChatList } from './ChatList.tsx';
import type { ChatView as ChatViewType } from './ChatView.tsx';

/**
 * The open chat's code (history, composer, contact panel) is not on the first screen, the list is: it is a chunk
 * of its own, fetched while the frame starts (`preloadChatView`), and drawn at once when a chat is opened later.
 */
let chatViewModule: { ChatView: typeof ChatViewType } | null = null;
export const preloadChatView = () => import('./ChatView.tsx').then((m) => (chatViewModule = m));
type ViewModule = { default: typeof ChatViewType };
/**
 * Once the chunk is in, the lazy view is handed it through a thenable that answers at once: React then renders the
 * view in the same pass. A promise, even a settled one, answers a tick later, so the view would suspend and show
 * its fallback first, and React reveals a boundary no sooner than 300 ms after its fallback.
 */
const ChatView = lazy(() =>
  chatViewModule
    ? ({ then: (resolve: (m: ViewModule) => void) => resolve({ default: chatViewModule!.ChatView }) } as unknown as Promise<ViewModule>)
    : preloadChatView().then((m) => ({ default: m.ChatView })),
);

/**
 * What the screen tells the host and the agent without drawing (the badges' totals, the unread counts, the title):
 * a leaf of its own, so that a count changing draws nothing else.
 */
function Watchers({ title }: { title: string }) {
  useUnansweredBadge();
  useNotifications(title);
  return null;
}

/**
 * The agent's chat screen: the list on one side, the open chat on the other; in a narrow frame one at a time.
 */
export function ChatScreen() {
  useChatStream();
  const search = useChatUi((s) => s.search);
  const list = useChatList(search);
  const { openChat } = useChatOpening(list.data);
  const opened = useChatUi((s) => s.opened);
  const close = useChatUi((s) => s.close);
  const capabilities = useCapabilities();
  const openRef = opened?.kind === 'chat' ? opened.chat.chat_ref : null;
  const listed = openRef ? list.data?.find((c) => c.chat_ref === openRef) : undefined;
  const viewKey = openedKey(opened);
  // The host may change them while the frame is open (`set_options`).
  const { theme, lang } = useFrameOptions();
  const w = useWords(words).screen;

  return (
    <div className="gw-theme gw-screen flex h-full min-h-0 flex-col" data-theme={theme} lang={lang}>
      <Watchers title={w.title} />
      <ConnectionBanner />
      <div className="grid min-h-0 flex-1 grid-cols-[minmax(240px,320px)_1fr] max-sm:grid-cols-1">
        <h1 className="sr-only">{w.title}</h1>
        <ChatList list={list} openRef={openRef} onOpen={openChat} hidden={!!opened} />
        <main className={`flex min-h-0 min-w-0 ${opened ? '' : 'max-sm:hidden'}`}>
          {opened && viewKey ? (
            <Suspense>
              <ChatView key={viewKey} opened={opened} listed={listed} caps={opened.chat.channel_id ? capabilities.get(opened.chat.channel_id) : undefined} onBack={close} />
            </Suspense>
          ) : (
            <p className="m-auto p-4 text-muted">{w.empty}</p>
          )}
        </main>
      </div>
    </div>
  );
}
