import { useCallback, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import { useLang } from '../../../lib/i18n.ts';
import type { ChatContext } from '../context.ts';
import type { Opened } from '../hooks/use-chat-screen.ts';
import { useHistory, type HistoryTarget } from '../hooks/use-history.ts';
import { useMinuteClock } from '../hooks/use-minute-clock.ts';
import { messageActions } from '../store/actions.ts';
import { replyWindow } from '../store/reply-window.ts';
import { templateWords } from '../template-words.ts';
import type { ChatMessage } from '../store/message.ts';
import { words } from '../words.ts';
import { Composer, type Editing } from './Composer.tsx';
import { chatTitle, transportName } from './format.ts';
import { MessageHistory } from './MessageHistory.tsx';
import { TemplateComposer } from './TemplateComposer.tsx';

interface Props {
  ctx: ChatContext;
  opened: Opened;
  /** The listed chat's latest state, when it is listed. */
  listed: BffChat | undefined;
  /** What the chat's channel can do, once known. */
  caps: TransportCapabilities | undefined;
  onBack(): void;
  onSent(): void;
}

const targetOf = (opened: Opened): HistoryTarget =>
  opened.kind === 'chat'
    ? opened.chat
    : { chat_ref: null, channel_id: opened.chat.channel_id ?? null, chat_type: opened.chat.chat_type, chat_id: opened.chat.chat_id };

/** One open conversation: who it is with, its history, and the composer. Keyed by the chat where it is used. */
export function ChatView({ ctx, opened, listed, caps, onBack, onSent }: Props) {
  const lang = useLang();
  const w = words[lang];
  const target = targetOf(opened);
  const { state, loadOlder, send, sendTemplate, sendFile, edit, remove, retry } = useHistory(ctx, target, onSent);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const templatesChannel = caps?.templates ? target.channel_id : null;
  const windowHours = caps?.reply_window_hours ?? null;
  const now = useMinuteClock(windowHours !== null);
  const windowClosed = windowHours !== null && replyWindow(state, windowHours, now) === 'closed';
  const chat = listed ?? (opened.kind === 'chat' ? opened.chat : null);
  const title = chat ? chatTitle(chat, lang) : (opened.chat.chat_id ?? w.chat.unknownContact);
  const via = chat ? (chat.channel_name ?? transportName(chat.transport, lang)) : transportName(opened.chat.chat_type, lang);
  const handle = chat?.username ? `@${chat.username}` : chat?.phone ? `+${chat.phone}` : null;

  const actionsOf = useCallback((m: ChatMessage) => messageActions(m, caps, Date.now()), [caps]);
  const onEdit = useCallback((m: ChatMessage) => m.message_id && setEditing({ messageId: m.message_id, text: m.text ?? '' }), []);
  const onDelete = useCallback(
    (m: ChatMessage) => {
      if (!m.message_id) return;
      setActionError(null);
      void remove(m.message_id).then(setActionError);
    },
    [remove],
  );

  return (
    <section className="gw-chat" aria-label={w.view.label(title)}>
      <header className="gw-chat__header">
        <button type="button" className="gw-button gw-button--quiet gw-chat__back" onClick={onBack} aria-label={w.view.back}>
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
      <MessageHistory history={state} onLoadOlder={loadOlder} onRetry={retry} actionsOf={actionsOf} onEdit={onEdit} onDelete={onDelete} />
      {actionError && (
        <div className="gw-chat__error gw-error" role="alert">
          <span>
            <strong>{w.view.notDeleted}</strong> {actionError}
          </span>
          <button type="button" className="gw-link-button" aria-label={w.dismissError} onClick={() => setActionError(null)}>
            ✕
          </button>
        </div>
      )}
      {templatesOpen && templatesChannel && (
        <TemplateComposer client={ctx.client} channelId={templatesChannel} onSend={sendTemplate} onClose={() => setTemplatesOpen(false)} />
      )}
      {/* Kept while the template form is open, so that a text being written stays. */}
      <div hidden={templatesOpen && !!templatesChannel}>
        <Composer
          onSend={send}
          onEdit={edit}
          editing={editing}
          onCancelEdit={() => setEditing(null)}
          limit={caps?.text_limit ?? null}
          disabledReason={target.channel_id ? null : w.view.noChannel}
          onOpenTemplates={templatesChannel ? () => setTemplatesOpen(true) : null}
          notice={windowClosed ? (caps?.templates ? templateWords[lang].templates.windowClosed(windowHours) : templateWords[lang].templates.windowClosedUntilTheyWrite(windowHours)) : null}
          onSendFile={sendFile}
        />
      </div>
    </section>
  );
}
