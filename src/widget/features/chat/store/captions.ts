import type { ChatMessage } from './message.ts';

/**
 * A file and its caption drawn as one message, as WhatsApp Web and Telegram Web draw them. The gateway records a
 * customer's file with words as two messages (the interface's messages carry text or an attachment); the history
 * names the words' file (`caption_of`, on the same page or the one before: words opening a page join their file
 * once that page is read). The two become the file's bubble with the words under it: the file keeps its id
 * (replies and reactions are the file's, as at the messenger), and `caption_id` names the words, so that a jump to
 * them finds the bubble.
 */
export function foldCaptions(messages: ChatMessage[]): ChatMessage[] {
  if (!messages.some((m) => m.caption_of)) return messages;
  const shown: ChatMessage[] = [];
  for (const m of messages) {
    const file = shown.at(-1);
    if (m.caption_of && file && file.message_id === m.caption_of && file.attachment && file.text === null && !file.caption_id) {
      shown[shown.length - 1] = { ...file, text: m.text, caption_id: m.message_id!, edited_at: m.edited_at ?? file.edited_at, deleted: file.deleted || m.deleted };
      continue;
    }
    shown.push(m);
  }
  return shown;
}
