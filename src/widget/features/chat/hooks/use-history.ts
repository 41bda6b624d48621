import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { ChatType } from '../../../../contract/channels.ts';
import type { Recipient } from '../../../../contract/messages.ts';
import { deleteMessage, editMessage } from '../api/edit-message.ts';
import { getMessages, historyPageSizes } from '../api/get-messages.ts';
import { sendMessage } from '../api/send-message.ts';
import type { ChatContext } from '../context.ts';
import { emptyHistory, historyReducer } from '../store/history.ts';
import { sameChat, type NamedChat } from '../store/scope.ts';
import { describeError } from './errors.ts';

/** The chat a history is of: its gateway id once it has one, and how the messenger names it. */
export interface HistoryTarget extends NamedChat {
  chat_type: ChatType;
  chat_ref: string | null;
  channel_id: string | null;
}

let sends = 0;

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

  const readNewest = useCallback(() => {
    if (!chatRef) return;
    getMessages(client, chatRef, { limit: historyPageSizes.newest }).then(
      (page) => dispatch({ type: 'page', chatRef, page, older: false }),
      (err: unknown) => dispatch({ type: 'failed', chatRef, error: describeError(err), older: false }),
    );
  }, [client, chatRef]);

  useEffect(readNewest, [readNewest]);
  useEffect(
    () =>
      ctx.onResync(() => {
        dispatch({ type: 'open', chatRef });
        readNewest();
      }),
    [ctx, chatRef, readNewest],
  );
  useEffect(
    () =>
      ctx.onEvent((event) => {
        if (event.name === 'message.add') {
          const p = event.payload;
          if (sameChat(targetRef.current, { ...p.recipient, channel_id: p.channel_id })) dispatch({ type: 'added', payload: p });
        } else {
          dispatch({ type: 'event', event });
        }
      }),
    [ctx],
  );

  const loadOlder = useCallback(() => {
    const { olderCursor, loadingOlder, phase } = current.current;
    if (!chatRef || !olderCursor || loadingOlder || phase !== 'ready') return;
    dispatch({ type: 'loadingOlder' });
    getMessages(client, chatRef, { before: olderCursor, limit: historyPageSizes.older }).then(
      (page) => dispatch({ type: 'page', chatRef, page, older: true }),
      (err: unknown) => dispatch({ type: 'failed', chatRef, error: describeError(err), older: true }),
    );
  }, [client, chatRef]);

  /** Sends a text; resolves to null, or to what to tell the agent when the gateway refused it. */
  const send = useCallback(
    async (text: string): Promise<string | null> => {
      const t = targetRef.current;
      if (!t.channel_id) return 'This chat has no channel to send through.';
      const key = `local-${++sends}`;
      dispatch({ type: 'sending', key, text, now: new Date() });
      const recipient: Recipient = t.chat_id
        ? { chat_type: t.chat_type, chat_id: t.chat_id }
        : t.username
          ? { chat_type: t.chat_type, username: t.username }
          : { chat_type: t.chat_type, phone: t.phone ?? '' };
      try {
        const result = await sendMessage(client, { channel_id: t.channel_id, recipient, text });
        dispatch({ type: 'sent', key, requestId: result.request_id });
        onSent?.();
        return null;
      } catch (err) {
        dispatch({ type: 'sendFailed', key });
        return describeError(err);
      }
    },
    [client, onSent],
  );

  /** Edits or deletes a message; resolves to null, or to what to tell the agent. The change arrives by the stream. */
  const edit = useCallback(
    (messageId: string, text: string): Promise<string | null> => editMessage(client, messageId, text).then(() => null, describeError),
    [client],
  );
  const remove = useCallback(
    (messageId: string): Promise<string | null> => deleteMessage(client, messageId).then(() => null, describeError),
    [client],
  );

  return { state, loadOlder, send, edit, remove, retry: readNewest };
}
