import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { ChatType } from '../../../../contract/channels.ts';
import type { Recipient, TemplateRef } from '../../../../contract/messages.ts';
import { uploadLimits } from '../../../../contract/uploads.ts';
import { deleteMessage, editMessage } from '../api/edit-message.ts';
import { getMessages, historyPageSizes } from '../api/get-messages.ts';
import { sendMessage } from '../api/send-message.ts';
import { uploadFile } from '../api/upload-file.ts';
import type { ChatContext } from '../context.ts';
import { emptyHistory, historyReducer } from '../store/history.ts';
import { sameChat, type NamedChat } from '../store/scope.ts';
import { useCurrentLang } from '../../../lib/i18n.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { words } from '../words.ts';

/** The chat a history is of: its gateway id once it has one, and how the messenger names it. */
export interface HistoryTarget extends NamedChat {
  chat_type: ChatType;
  chat_ref: string | null;
  channel_id: string | null;
}

let sends = 0;

/** What the agent sends: words, a template with the words it fills in, or a file to upload first. */
type Outgoing = { text: string } | { template: TemplateRef; preview: string } | { file: File };

/**
 * The history of one chat (the component using it is keyed by the chat): the newest page first, older pages
 * on demand, the stream applied, and sending. Mount it again for another chat.
 */
export function useHistory(ctx: Pick<ChatContext, 'client' | 'onEvent' | 'onResync'>, target: HistoryTarget, onSent?: () => void) {
  const { client } = ctx;
  const chatRef = target.chat_ref;
  const [state, dispatch] = useReducer(historyReducer, chatRef, emptyHistory);
  const current = useRef(state);
  current.current = state;
  const targetRef = useRef(target);
  targetRef.current = target;
  // The screen's language, as of when a call fails: a change of language does not read again.
  const lang = useCurrentLang();

  const read = useCallback(
    (part: 'newest' | 'again') => {
      if (!chatRef) return;
      getMessages(client, chatRef, { limit: historyPageSizes.newest }).then(
        (page) => dispatch({ type: 'page', chatRef, page, part }),
        (err: unknown) => part === 'newest' && dispatch({ type: 'failed', chatRef, error: refusalOf(err, {}, lang()).message, older: false }),
      );
    },
    [client, chatRef],
  );
  const readNewest = useCallback(() => read('newest'), [read]);

  useEffect(readNewest, [readNewest]);
  useEffect(
    () =>
      ctx.onResync(() => {
        dispatch({ type: 'open', chatRef });
        readNewest();
      }),
    [ctx, chatRef, readNewest],
  );

  // Statuses name only the message. One of a message not shown (another agent's send: no `message.add` comes for
  // it) is followed by the chat's unanswered update with the same id and `.unanswered`; if that names this chat,
  // the newest page is read again.
  const unplaced = useRef(new Set<string>());
  useEffect(
    () =>
      ctx.onEvent((event) => {
        if (event.name === 'message.add') {
          const p = event.payload;
          if (sameChat(targetRef.current, { ...p.recipient, channel_id: p.channel_id })) dispatch({ type: 'added', payload: p });
          return;
        }
        if (event.name === 'message.status_update') {
          const { message_id: id, request_id: request } = event.payload;
          const shown = current.current.messages.some((m) => (id !== null && m.message_id === id) || (request !== null && m.request_id === request));
          if (!shown) {
            unplaced.current.add(event.id);
            if (unplaced.current.size > 100) unplaced.current.delete(unplaced.current.values().next().value!);
          }
        }
        if (event.name === 'chat.unanswered_update') {
          const cause = event.id.replace(/\.unanswered$/, '');
          if (event.payload.chat_ref === chatRef && unplaced.current.delete(cause)) read('again');
          return;
        }
        dispatch({ type: 'event', event });
      }),
    [ctx, chatRef, read],
  );

  const loadOlder = useCallback(() => {
    const { olderCursor, loadingOlder, phase } = current.current;
    if (!chatRef || !olderCursor || loadingOlder || phase !== 'ready') return;
    dispatch({ type: 'loadingOlder' });
    getMessages(client, chatRef, { before: olderCursor, limit: historyPageSizes.older }).then(
      (page) => dispatch({ type: 'page', chatRef, page, part: 'older' }),
      (err: unknown) => dispatch({ type: 'failed', chatRef, error: refusalOf(err, {}, lang()).message, older: true }),
    );
  }, [client, chatRef]);

  /**
   * Sends a text, a template or a file; resolves to null, or to what to tell the agent when the gateway refused it.
   * A file is shown at once by its name, uploaded, then sent as the upload's attachment.
   */
  const post = useCallback(
    async (content: Outgoing): Promise<string | null> => {
      const t = targetRef.current;
      if (!t.channel_id) return words[lang()].view.noChannelToSend;
      if ('file' in content && content.file.size > uploadLimits.maxBytes) {
        return words[lang()].composer.fileTooLarge(content.file.name, uploadLimits.maxBytes / 1024 / 1024);
      }
      const key = `local-${++sends}`;
      const now = new Date();
      if ('text' in content) dispatch({ type: 'sending', key, text: content.text, now });
      else if ('template' in content) dispatch({ type: 'sending', key, text: null, template: { ...content.template, text: content.preview }, now });
      else dispatch({ type: 'sending', key, text: null, attachment: { url: '', name: content.file.name, size: content.file.size }, now });
      const recipient: Recipient = t.chat_id
        ? { chat_type: t.chat_type, chat_id: t.chat_id }
        : t.username
          ? { chat_type: t.chat_type, username: t.username }
          : { chat_type: t.chat_type, phone: t.phone ?? '' };
      try {
        const body =
          'text' in content ? { text: content.text } : 'template' in content ? { template: content.template } : { attachment: await uploadFile(client, content.file) };
        const result = await sendMessage(client, { channel_id: t.channel_id, recipient, ...body });
        dispatch({ type: 'sent', key, requestId: result.request_id, ...('attachment' in body ? { attachment: body.attachment } : {}) });
        onSent?.();
        return null;
      } catch (err) {
        dispatch({ type: 'sendFailed', key });
        return refusalOf(err, {}, lang()).message;
      }
    },
    [client, onSent],
  );
  const send = useCallback((text: string) => post({ text }), [post]);
  const sendTemplate = useCallback((template: TemplateRef, preview: string) => post({ template, preview }), [post]);
  const sendFile = useCallback((file: File) => post({ file }), [post]);

  /** Edits or deletes a message; resolves to null, or to what to tell the agent. The change arrives by the stream. */
  const edit = useCallback(
    (messageId: string, text: string): Promise<string | null> => editMessage(client, messageId, text).then(() => null, (err: unknown) => refusalOf(err, {}, lang()).message),
    [client],
  );
  const remove = useCallback(
    (messageId: string): Promise<string | null> => deleteMessage(client, messageId).then(() => null, (err: unknown) => refusalOf(err, {}, lang()).message),
    [client],
  );

  return { state, loadOlder, send, sendTemplate, sendFile, edit, remove, retry: readNewest };
}
