import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { ChatContext } from '../context.ts';
import { useHistory, type HistoryTarget } from '../hooks/use-history.ts';
import type { Opened } from '../hooks/use-chat-screen.ts';
import { Composer } from './Composer.tsx';
import { chatTitle, transportNames } from './format.ts';
import { MessageHistory } from './MessageHistory.tsx';

interface Props {
  ctx: ChatContext;
  opened: Opened;
  /** The listed chat's latest state, when it is listed. */
  listed: BffChat | undefined;
  onBack(): void;
  onSent(): void;
}

const targetOf = (opened: Opened): HistoryTarget =>
  opened.kind === 'chat'
    ? opened.chat
    : { chat_ref: null, channel_id: opened.chat.channel_id ?? null, chat_type: opened.chat.chat_type, chat_id: opened.chat.chat_id };

/** One open conversation: who it is with, its history, and the composer. Keyed by the chat where it is used. */
export function ChatView({ ctx, opened, listed, onBack, onSent }: Props) {
  const target = targetOf(opened);
  const { state, loadOlder, send, retry } = useHistory(ctx, target, onSent);
  const chat = listed ?? (opened.kind === 'chat' ? opened.chat : null);
  const title = chat ? chatTitle(chat) : opened.chat.chat_id;
  const via = chat ? (chat.channel_name ?? transportNames[chat.transport] ?? chat.transport) : (transportNames[opened.chat.chat_type] ?? opened.chat.chat_type);
  const handle = chat?.username ? `@${chat.username}` : chat?.phone ? `+${chat.phone}` : null;

  return (
    <section className="gw-chat" aria-label={`Chat with ${title}`}>
      <header className="gw-chat__header">
        <button type="button" className="gw-button gw-button--quiet gw-chat__back" onClick={onBack} aria-label="Back to the chat list">
          ←
        </button>
        <div className="gw-chat__who">
          <h2 className="gw-chat__title">{title}</h2>
          <p className="gw-chat__via">
            {handle ? `${handle} · ` : ''}
            {via}
          </p>
        </div>
      </header>
      <MessageHistory history={state} onLoadOlder={loadOlder} onRetry={retry} />
      <Composer onSend={send} disabledReason={target.channel_id ? null : 'Open this chat from the list to write to it.'} />
    </section>
  );
}
