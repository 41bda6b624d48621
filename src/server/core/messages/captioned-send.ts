import type { SendMessageBody, SendMessageResult } from '../../../contract/messages.ts';
import type { TransportRules } from '../channels/transport-rules.ts';
import { acceptMessage, acceptMessageWithId } from './accept-message.ts';
import type { MessageDeps } from './ports.ts';

/** The answer to the frame's send (FrameSendResult). */
export type CaptionedResult = SendMessageResult & {
  /** The request id of the words, when they went as a message of their own after the file. */
  caption_request_id?: string;
};

/** Whether a file of this type takes these words as its caption on a transport with this rule. */
export function captionFits(rule: TransportRules['caption'], mimetype: string | undefined, text: string): boolean {
  if (!rule || [...text].length > rule.chars) return false;
  // A file of no told type may turn out a sound: it gets no caption where sounds take none.
  return rule.sounds || (mimetype !== undefined && !mimetype.startsWith('audio/') && mimetype !== 'video/webm');
}

/**
 * A file with its caption, as the chat frame sends it. The interface's messages carry text or an attachment (/v2 and
 * /v3 refuse both), but a messenger that shows words under a file takes them in the same message, as its own clients
 * do: there the two go as one message, with the words as the file's caption. Where the messenger has no caption, or
 * none for this kind of file, or the words are longer than a caption may be, or buttons come with them (they go with
 * the words), the file goes first and the words after it, as two messages.
 */
export async function acceptCaptioned(deps: MessageDeps, accountId: string, body: SendMessageBody): Promise<CaptionedResult> {
  const { text, attachment, keyboard } = body;
  if (text === undefined || attachment === undefined || body.template !== undefined) return acceptMessage(deps, accountId, body);
  const channel = await deps.store.channels.get(accountId, body.channel_id);
  const rule = channel ? deps.rules[channel.transport].caption : undefined;
  if (!keyboard && captionFits(rule, attachment.mimetype, text)) return (await acceptMessageWithId(deps, accountId, body, undefined, true)).result;
  const { text: _words, keyboard: _buttons, ...file } = body;
  const { attachment: _file, quoted_message_id: _quote, ...words } = body;
  const sent = await acceptMessage(deps, accountId, file);
  const caption = await acceptMessage(deps, accountId, words);
  // Warnings are of the buttons, which went with the words.
  return { request_id: sent.request_id, chat_id: sent.chat_id, ...(caption.warnings ? { warnings: caption.warnings } : {}), caption_request_id: caption.request_id };
}
