import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatType } from '../../../../contract/channels.ts';
import type { FrameSendResult } from '../../../../contract/bff-chats.ts';
import type { Attachment, Keyboard, Recipient, SendMessageBody, TemplateRef } from '../../../../contract/messages.ts';
import { uploadLimits } from '../../../../contract/upload-limits.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { sending, type ChatMessage } from '../store/message.ts';
import { markResent, unmarkResent } from '../store/resent.ts';
import type { NamedChat } from '../store/scope.ts';
import { keyboardWarnings } from '../store/keyboard-draft-warnings.ts';
import { chatListKeys } from './get-chats.ts';
import { historyKeys } from './get-messages.ts';
import { appendMessage, keysOf, pendingPatches, removeMessage, updateMessages, type HistoryData } from './history-cache.ts';
import { uploadFile } from './upload-file.ts';

/** POST /bff/messages: sends as the session's user (the server sets the author); a file may come with its caption. */
export const sendMessage = (client: BffClient, body: Omit<SendMessageBody, 'crm_user_id'>): Promise<FrameSendResult> =>
  client.request<FrameSendResult>('POST', '/messages', body);

/** The chat a send goes to: its history in the cache, and how the messenger names the recipient. */
export interface SendTarget extends NamedChat {
  chat_type: ChatType;
  chat_ref: string | null;
  channel_id: string | null;
  /** The CRM's name for a contact written to first: the gateway keeps it as the chat's contact. */
  contact_name?: string | null | undefined;
}

/**
 * What the agent sends: words, a template with the words it fills in, a file to upload first, or a file uploaded
 * before (sending a failed message again), either file maybe with its caption (one message where the messenger shows
 * a caption under the file, else the gateway sends the words after it); maybe quoting another message, maybe with
 * buttons (a keyboard in the dialect of the channel).
 */
export type Outgoing = ({ text: string } | { template: TemplateRef; preview: string } | { file: File; caption?: string } | { attachment: Attachment; caption?: string }) & {
  quote?: ChatMessage['quoted_message'];
  keyboard?: Keyboard;
};


/** A file too large for an upload: refused before any byte is sent. */
export class FileTooLarge extends Error {
  readonly file: File;
  constructor(file: File) {
    super('file too large');
    this.file = file;
  }
}

export const recipientOf = (t: SendTarget): Recipient => ({
  ...(t.chat_id ? { chat_type: t.chat_type, chat_id: t.chat_id } : t.username ? { chat_type: t.chat_type, username: t.username } : { chat_type: t.chat_type, phone: t.phone ?? '' }),
  // Said with the first message only: a listed chat has its name already.
  ...(t.chat_ref === null && t.contact_name ? { crm_contact_name: t.contact_name } : {}),
});

let sends = 0;

/**
 * Sends a text, a template or a file to the chat. The message shows at once (status `sending`) and is matched
 * later by the request id the gateway answers with: its statuses come over the stream, maybe before the answer
 * (they wait for it). A refused send takes the message back out; the composer gives its text back.
 */
export function useSendMessage(target: SendTarget) {
  const { client } = useEmbed();
  const queryClient = useQueryClient();
  const key = target.chat_ref ? historyKeys.chat(target.chat_ref) : historyKeys.draft(target);
  const update = (change: (data: HistoryData) => HistoryData) => queryClient.setQueryData<HistoryData>(key, (data) => (data ? change(data) : data));

  return useMutation({
    mutationFn: async (content: Outgoing & { key: string; replaces?: ChatMessage }) => {
      if (!target.channel_id) throw new Error('no channel');
      const quoted_message_id = content.quote?.message_id;
      const base = {
        channel_id: target.channel_id,
        recipient: recipientOf(target),
        ...(quoted_message_id ? { quoted_message_id } : {}),
        // Left out of the JSON when there is none.
        keyboard: content.keyboard,
      };
      if ('text' in content) return { result: await sendMessage(client, { ...base, text: content.text }) };
      if ('template' in content) return { result: await sendMessage(client, { ...base, template: content.template }) };
      const text = content.caption?.trim() || undefined;
      if ('attachment' in content) return { result: await sendMessage(client, { ...base, attachment: content.attachment, text }) };
      if (content.file.size > uploadLimits.maxBytes) throw new FileTooLarge(content.file);
      const attachment: Attachment = await uploadFile(client, content.file);
      return { result: await sendMessage(client, { ...base, attachment, text }), attachment };
    },
    // No read of the history is cancelled for this: a first read still on its way would be left without data, and
    // a newest page read meanwhile keeps this frame's unsent messages (keepUnsent).
    onMutate: (content) => {
      const now = new Date();
      let shown: ChatMessage;
      if ('text' in content) shown = sending(content.key, content.text, now);
      else if ('template' in content) shown = sending(content.key, null, now, { ...content.template, text: content.preview });
      else if ('attachment' in content) shown = sending(content.key, content.caption?.trim() || null, now, null, content.attachment);
      else shown = sending(content.key, content.caption?.trim() || null, now, null, { url: '', name: content.file.name, size: content.file.size, mimetype: content.file.type || undefined });
      const row = { ...shown, quoted_message: content.quote ?? null, keyboard: content.keyboard ?? null };
      const failed = content.replaces;
      if (!failed) return update((data) => appendMessage(data, row));
      // Sent again: the failed message's bubble becomes the new message, where it stood.
      if (failed.message_id) markResent(failed.message_id);
      update((data) => updateMessages(data, (m) => m.key === failed.key, () => row));
    },
    onSuccess: ({ result, attachment }, content) => {
      const keyboardChanged = Boolean(content.keyboard && result.warnings?.length);
      if (keyboardChanged) keyboardWarnings.set(content.keyboard!, result.warnings!);
      update((data) => {
        // A read of the newest page may have brought the message before the answer to the send did.
        const already = data.pages.some((p) => p.messages.some((m) => m.request_id === result.request_id && m.key !== content.key));
        if (already) return removeMessage(data, content.key);
        const shown = data.pages.flatMap((p) => p.messages).find((m) => m.key === content.key);
        const accepted = (m: ChatMessage): ChatMessage => {
          const sent: ChatMessage = { ...m, status: 'accepted' };
          return keysOf(sent).length ? pendingPatches(queryClient).apply(sent) : sent;
        };
        const updated = updateMessages(
          data,
          (m) => m.key === content.key,
          (m) => accepted({ ...m, request_id: result.request_id, ...(attachment ? { attachment } : {}), ...(result.caption_request_id ? { text: null, keyboard: null } : {}) }),
        );
        // The messenger shows no caption under this file: the words went after it, as a message of their own.
        if (!result.caption_request_id || !shown?.text) return updated;
        return appendMessage(updated, accepted({ ...sending(`${content.key}:caption`, shown.text, new Date(shown.created_at)), request_id: result.caption_request_id, keyboard: shown.keyboard }));
      });
      // The chat's row showed the failed message as its last: it is read again to show the one sent in its place.
      if (content.replaces) void queryClient.invalidateQueries({ queryKey: chatListKeys.all });
      // The gateway dropped or cut some of the buttons: the row shows what was stored, not what the agent attached.
      if (keyboardChanged) void queryClient.invalidateQueries({ queryKey: key, exact: true });
    },
    onError: (_err, content) => {
      const failed = content.replaces;
      if (!failed) return update((data) => removeMessage(data, content.key));
      // Refused again: the failed message is back as it was, offering to be sent again.
      if (failed.message_id) unmarkResent(failed.message_id);
      update((data) => updateMessages(data, (m) => m.key === content.key, () => failed));
    },
  });
}

/** A key for a message this frame sends, fixed for its row before the gateway names it. */
export const newSendKey = (): string => `local-${++sends}`;
