import { useMemo } from 'react';
import { useFrameOptions } from '../../../lib/frame-options.tsx';
import { useWords } from '../../../lib/i18n.ts';
import type { ChatContext } from '../context.ts';
import { useCapabilities } from '../hooks/use-capabilities.ts';
import { useChatScreen } from '../hooks/use-chat-screen.ts';
import { words } from '../words.ts';
import { ChatList } from './ChatList.tsx';
import { ChatView } from './ChatView.tsx';
import './chat.css';
import './chat-view.css';
import './chat-composer.css';

/**
 * The agent's chat screen: the list on one side, the open chat on the other; in a narrow frame one at a time.
 */
export function ChatScreen({ ctx }: { ctx: ChatContext }) {
  const { list, opened, openChat, close } = useChatScreen(ctx);
  const capabilities = useCapabilities(ctx);
  const openRef = opened?.kind === 'chat' ? opened.chat.chat_ref : null;
  const listed = useMemo(() => (openRef ? list.state.chats.find((c) => c.chat_ref === openRef) : undefined), [openRef, list.state.chats]);
  const viewKey = opened ? (opened.kind === 'chat' ? opened.chat.chat_ref : `new:${opened.chat.channel_id ?? ''}:${opened.chat.chat_type}:${opened.chat.chat_id}`) : null;
  // The host may change them while the frame is open (`set_options`).
  const { theme, lang } = useFrameOptions();
  const w = useWords(words).screen;

  return (
    <div className={`gw-theme gw-screen${opened ? ' gw-screen--open' : ''}`} data-theme={theme} lang={lang}>
      <ChatList state={list.state} openRef={openRef} onOpen={openChat} onSearch={list.search} onLoadMore={list.loadMore} onRetry={list.retry} />
      <main className="gw-screen__main">
        {opened && viewKey ? (
          <ChatView
            key={viewKey}
            ctx={ctx}
            opened={opened}
            listed={listed}
            caps={opened.chat.channel_id ? capabilities.get(opened.chat.channel_id) : undefined}
            onBack={close}
            onSent={list.refreshSoon}
          />
        ) : (
          <p className="gw-screen__empty">{w.empty}</p>
        )}
      </main>
    </div>
  );
}
