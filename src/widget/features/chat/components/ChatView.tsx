import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { TransportCapabilities } from '../../../../contract/channels.ts';
import type { TemplateRef } from '../../../../contract/messages.ts';
import { uploadLimits } from '../../../../contract/upload-limits.ts';
import { Button } from '@/components/ui/Button.tsx';
import { ErrorNote } from '@/components/ui/ErrorNote.tsx';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useDeleteMessage } from '../api/delete-message.ts';
import { useEditMessage } from '../api/edit-message.ts';
import { historyKeys, useHistory } from '../api/get-messages.ts';
import { useContactName } from '../api/lookup-contact.ts';
import { FileTooLarge, newSendKey, useSendMessage, type Outgoing, type SendTarget } from '../api/send-message.ts';
import { useMinuteClock } from '../hooks/use-minute-clock.ts';
import { useSendChannel } from '../hooks/use-send-channel.ts';
import { messageActions } from '../store/actions.ts';
import { mediaOf, useViewer } from '../store/media.ts';
import type { ChatMessage } from '../store/message.ts';
import { replyWindow } from '../store/reply-window.ts';
import { newChatNames } from '../store/scope.ts';
import { useForward } from '../store/forward.ts';
import { useChatUi, type Opened } from '../store/ui.ts';
import { templateWords } from '../template-words.ts';
import { viewWords } from '../view-words.ts';
import { words } from '../words.ts';
import { ChatContactName } from './Byline.tsx';
import { ChatTools } from './ChatTools.tsx';
import { Composer } from './Composer.tsx';
import { ContactPanel } from './ContactPanel.tsx';
import { chatTitle, transportName } from './format.ts';
import { MessageHistory } from './MessageHistory.tsx';
import { MessengerMark } from './MessengerMark.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';
import { useTellTyping } from '../hooks/use-typing.ts';

// Opened now and then, not with every chat: loaded on first use, so the frame's first load stays within its budget.
const ForwardDialog = lazy(() => import('./ForwardDialog.tsx').then((m) => ({ default: m.ForwardDialog })));
const TemplateComposer = lazy(() => import('./TemplateComposer.tsx').then((m) => ({ default: m.TemplateComposer })));
const MediaViewer = lazy(() => import('./MediaViewer.tsx'));

interface Props {
  opened: Opened;
  /** The listed chat's latest state, when it is listed. */
  listed: BffChat | undefined;
  /** What the chat's channel can do, once known. */
  caps: TransportCapabilities | undefined;
  onBack(): void;
}

const targetOf = (opened: Opened): SendTarget =>
  opened.kind === 'chat'
    ? opened.chat
    : {
        chat_ref: null,
        channel_id: opened.chat.channel_id ?? null,
        chat_type: opened.chat.chat_type,
        chat_id: opened.chat.chat_id,
        username: opened.chat.username,
        phone: opened.chat.phone,
        contact_name: opened.chat.contact_name,
      };

/** One open conversation: who it is with, its history, and the composer. Keyed by the chat where it is used. */
export function ChatView({ opened, listed, caps, onBack }: Props) {
  const lang = useLang();
  const { session } = useEmbed();
  const w = viewWords[lang];
  const via = useSendChannel(opened.kind === 'new' ? opened.chat : null);
  const target: SendTarget = { ...targetOf(opened), ...(via.open ? { channel_id: via.chosen } : {}) };
  const history = useHistory(target);
  const key = target.chat_ref ? historyKeys.chat(target.chat_ref) : historyKeys.draft(target);
  const send = useSendMessage(target);
  const edit = useEditMessage(key);
  const remove = useDeleteMessage();
  const [actionError, setActionError] = useState<string | null>(null);
  const tellTyping = useTellTyping(target.chat_ref, Boolean(caps?.typing));
  const templatesOpen = useChatUi((s) => s.templatesOpen);
  const forwarding = useForward((s) => s.content !== null);
  const viewing = useViewer((s) => s.url !== null);
  // The viewer belongs to this chat: leaving it closes the viewer.
  useEffect(() => () => useViewer.getState().close(), []);
  const showTemplates = useChatUi((s) => s.showTemplates);
  const startEdit = useChatUi((s) => s.edit);
  const reply = useChatUi((s) => s.reply);
  const templatesChannel = caps?.templates ? target.channel_id : null;
  const windowHours = caps?.reply_window_hours ?? null;
  const now = useMinuteClock(windowHours !== null);
  const shown = history.data;
  const windowClosed =
    windowHours !== null && replyWindow({ messages: shown?.messages ?? [], olderCursor: shown?.olderCursor ?? null, phase: shown ? 'ready' : 'loading' }, windowHours, now) === 'closed';
  const chat = listed ?? (opened.kind === 'chat' ? opened.chat : null);
  const named = chat ?? newChatNames(opened.chat, session);
  const storedName = useContactName(chat || named.name ? null : opened.chat);
  const title = chat ? chatTitle(chat, lang) : (named.name ?? storedName ?? opened.chat.chat_id ?? words[lang].chat.unknownContact);
  // A new chat shown by the CRM's name says whom it reaches: its handle, else the messenger's id (a WhatsApp number).
  const handle = named.username ? `@${named.username}` : named.phone ? `+${named.phone}` : !chat && (named.name ?? storedName) ? (opened.chat.chat_id ?? null) : null;

  /** Sends; resolves to null, or to what to tell the agent when the gateway refused it. */
  const post = useCallback(
    async function post(content: Outgoing, replaces?: ChatMessage): Promise<string | null> {
      if (!target.channel_id) return w.view.noChannelToSend;
      try {
        await send.mutateAsync({ ...content, key: newSendKey(), replaces });
        return null;
      } catch (err) {
        if (err instanceof FileTooLarge) return w.composer.fileTooLarge(err.file.name, uploadLimits.maxBytes / 1024 / 1024);
        return refusalOf(err, {}, lang).message;
      }
    },
    [send, target.channel_id, w, lang],
  );
  const sendTemplate = useCallback((template: TemplateRef, preview: string) => post({ template, preview }), [post]);
  const onEdit = useCallback(
    (messageId: string, text: string, before: string | null) => edit.mutateAsync({ messageId, text, before }).then(() => null, (err: unknown) => refusalOf(err, {}, lang).message),
    [edit, lang],
  );

  const actionsOf = useCallback((m: ChatMessage) => messageActions(m, caps, Date.now()), [caps]);
  const onStartEdit = useCallback((m: ChatMessage) => m.message_id && startEdit({ messageId: m.message_id, text: m.text ?? '' }), [startEdit]);
  const onReply = useCallback(
    (m: ChatMessage) =>
      m.message_id &&
      reply({ message_id: m.message_id, direction: m.direction, text: m.text ?? m.template?.text ?? null, attachment_name: m.attachment?.name ?? null, deleted: m.deleted }),
    [reply],
  );
  const [retryError, setRetryError] = useState<string | null>(null);
  const onRetry = useCallback(
    (m: ChatMessage) => {
      setRetryError(null);
      const quote = m.quoted_message ?? undefined;
      const keyboard = m.keyboard ?? undefined;
      const again: Outgoing | null = m.attachment?.url
        ? { attachment: m.attachment, ...(m.text !== null ? { caption: m.text } : {}), quote, keyboard }
        : m.text !== null
          ? { text: m.text, quote, keyboard }
          : null;
      if (again) void post(again, m).then(setRetryError);
    },
    [post],
  );
  const onDelete = useCallback(
    (m: ChatMessage) => {
      if (!m.message_id) return;
      setActionError(null);
      remove.mutate(m.message_id, { onError: (err) => setActionError(refusalOf(err, {}, lang).message) });
    },
    [remove, lang],
  );

  return (
    <section className="gw-chat flex min-h-0 min-w-0 flex-1 flex-col" aria-label={w.view.label(title)}>
      <header className="relative flex items-center gap-2 border-b border-line bg-panel px-3 py-2">
        <Button variant="quiet" className="px-2 py-1 text-lg sm:hidden" onClick={onBack} aria-label={w.view.back}>
          ←
        </Button>
        <div className="min-w-0">
          <h2 className="m-0 truncate text-[15px] font-semibold">{title}</h2>
          <p className="m-0 flex min-w-0 items-center gap-1 text-xs text-muted">
            {handle ? <span className="flex-none">{handle} ·</span> : null}
            <MessengerMark transport={chat?.transport ?? opened.chat.chat_type} channel={chat?.channel_name} />
          </p>
        </div>
        {opened.kind === 'chat' && <ChatTools chatRef={opened.chat.chat_ref} waiting={(listed ?? opened.chat).unanswered_count > 0} />}
      </header>
      {opened.kind === 'chat' && chat && <ContactPanel chat={chat} />}
      <ChatContactName.Provider value={title}>
        <MessageHistory history={history} actionsOf={actionsOf} onEdit={onStartEdit} onDelete={onDelete} onReply={onReply} onRetry={onRetry} />
      </ChatContactName.Provider>
      {caps?.typing && <TypingIndicator chatRef={target.chat_ref} who={title} />}
      {actionError && (
        <ErrorNote className="mx-3 mb-2" onDismiss={() => setActionError(null)} dismissLabel={w.dismissError}>
          <strong>{w.view.notDeleted}</strong> {actionError}
        </ErrorNote>
      )}
      {retryError && (
        <ErrorNote className="mx-3 mb-2" onDismiss={() => setRetryError(null)} dismissLabel={w.dismissError}>
          <strong>{w.composer.notSent}</strong> {retryError}
        </ErrorNote>
      )}
      <Suspense fallback={null}>
        {forwarding && <ForwardDialog fromChatRef={target.chat_ref} />}
        {viewing && <MediaViewer items={mediaOf(shown?.messages ?? [])} />}
        {templatesOpen && templatesChannel && <TemplateComposer channelId={templatesChannel} onSend={sendTemplate} onClose={() => showTemplates(false)} />}
      </Suspense>
      {via.open && via.reachable.length > 0 && (
        <label className="flex items-center gap-2 border-t border-line bg-panel px-3 pt-2 text-xs text-muted">
          {w.view.sendThrough}
          <select
            className="min-w-0 flex-1 rounded-md border border-line bg-panel px-2 py-1 text-sm text-text"
            value={via.chosen ?? ''}
            onChange={(e) => via.pick(e.target.value || null)}
          >
            {!via.chosen && <option value="">{w.view.chooseChannel}</option>}
            {via.reachable.map((c) => (
              <option key={c.channel_id} value={c.channel_id}>
                {[transportName(c.transport, lang), c.name ?? c.username ?? (c.phone ? `+${c.phone}` : null)].filter(Boolean).join(' · ')}
              </option>
            ))}
          </select>
        </label>
      )}
      {/* Kept while the template form is open, so that a text being written stays. */}
      <div hidden={templatesOpen && !!templatesChannel}>
        <Composer
          onSend={post}
          onEdit={onEdit}
          limit={caps?.text_limit ?? null}
          disabledReason={target.channel_id ? null : via.open && via.reachable.length > 0 ? w.view.chooseChannelFirst : w.view.noChannel}
          onOpenTemplates={templatesChannel ? () => showTemplates(true) : null}
          keyboardKind={caps?.keyboard ?? null}
          onTyping={tellTyping}
          notice={windowClosed ? (caps?.templates ? templateWords[lang].templates.windowClosed(windowHours) : templateWords[lang].templates.windowClosedUntilTheyWrite(windowHours)) : null}
        />
      </div>
    </section>
  );
}
