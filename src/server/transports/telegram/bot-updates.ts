import type { Attachment } from '../../../contract/messages.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import type { ChatMove, ReportedEdit } from '../../core/messages/platform-changes.ts';
import { pressedText } from '../bot-common.ts';
import { captionNumberOf } from '../../core/messages/caption-number.ts';
import type { BotCallbackQuery, BotChat, BotMessage, BotUser } from './bot-api.ts';
import { fileOf, fileUniqueIdOfLink } from './bot-files.ts';

/** Gives a customer's file the gateway's own link. */
export type AttachmentOf = (found: NonNullable<ReturnType<typeof fileOf>>) => Attachment;

type Chat = Pick<ArrivingMessage, 'chatType' | 'chatId' | 'username' | 'name'>;

const personOf = (user: BotUser) => [user.first_name, user.last_name].filter(Boolean).join(' ') || null;

const isPerson = (user: BotUser | undefined): user is BotUser => typeof user?.id === 'number' && !user.is_bot;

/** A customer's private chat with the bot (`telegram`, named by the customer) or a group the bot is in (`telegroup`, by its title). */
function chatOf(chat: BotChat, person: BotUser): Chat | null {
  if (chat.type === 'private') return { chatType: 'telegram', chatId: String(chat.id), username: person.username ?? null, name: personOf(person) };
  if (chat.type === 'group' || chat.type === 'supergroup') return { chatType: 'telegroup', chatId: String(chat.id), username: null, name: chat.title ?? null };
  return null;
}

/** A message as far as it is read: whatever else is posted to the hook is taken and dropped, not a 500. */
function customerMessage(message: BotMessage | undefined): (BotMessage & { from: BotUser }) | null {
  if (typeof message !== 'object' || message === null || typeof message.message_id !== 'number') return null;
  if (typeof message.chat?.id !== 'number' || !isPerson(message.from)) return null;
  return message as BotMessage & { from: BotUser };
}

/** A message's file and words, numbered as the gateway records them: the words of a file are `<id>:caption`. */
function partsOf(message: BotMessage, attachmentOf: AttachmentOf | undefined) {
  const id = String(message.message_id);
  const found = attachmentOf ? fileOf(message) : null;
  const words = message.text ?? message.caption;
  return {
    file: found && attachmentOf ? { messengerMessageId: id, attachment: attachmentOf(found) } : null,
    words: typeof words === 'string' ? { messengerMessageId: found ? captionNumberOf(id) : id, text: words } : null,
  };
}

/**
 * The messages of an update as the gateway records them: a customer's private chat with the bot (`telegram`) or a
 * group the bot is in (`telegroup`). A file (`attachmentOf` gives it its link) is one message and its caption
 * another, numbered `<id>:caption`, as the interface's messages carry text or an attachment. Other bots, channel
 * posts and messages with neither words nor a file (a sticker, a poll) are not recorded.
 */
export function arrivingOf(message: BotMessage | undefined, attachmentOf?: AttachmentOf): ArrivingMessage[] {
  const read = customerMessage(message);
  const chat = read && chatOf(read.chat, read.from);
  if (!read || !chat) return [];
  // In a group, who wrote is the member, whose own chat with the bot is a `telegram` one.
  const sender =
    chat.chatType === 'telegroup'
      ? { sender: { chat_type: 'telegram' as const, chat_id: String(read.from.id), name: personOf(read.from), username: read.from.username ?? null, phone: null } }
      : {};
  const common = { ...chat, direction: 'inbound' as const, phone: null, ...sender };
  const { file, words } = partsOf(read, attachmentOf);
  return [
    ...(file ? [{ ...common, text: null, ...file }] : []),
    ...(words ? [{ ...common, attachment: null, ...words }] : []),
  ];
}

/**
 * A customer's edit (`edited_message`, the message as it is now), as the changes of the messages the gateway
 * recorded of it: new words, for the message or for its file's caption (`<id>:caption`), and a replaced file,
 * told by its `file_unique_id` (Telegram may give the same file another `file_id`). A caption given to a file
 * that had none arrives as the message `<id>:caption` (`message.add`), as it would have with the file; a caption
 * taken away leaves that message's words empty (`message.edit` to `""`), and one given again fills them.
 */
export function editsOf(message: BotMessage | undefined, attachmentOf?: AttachmentOf): ReportedEdit[] {
  const read = customerMessage(message);
  const chat = read && chatOf(read.chat, read.from);
  if (!read || !chat) return [];
  // Telegram says when the edit was made: an edit sent again after a later one changes nothing.
  const editedAt = typeof read.edit_date === 'number' && Number.isSafeInteger(read.edit_date) && read.edit_date > 0 ? { editedAt: new Date(read.edit_date * 1000) } : {};
  const where = { chatType: chat.chatType, chatId: chat.chatId, ...editedAt };
  const id = String(read.message_id);
  const { file, words } = partsOf(read, attachmentOf);
  const edits: ReportedEdit[] = [];
  if (file) {
    const unique = fileOf(read)?.file.file_unique_id;
    const isRecordedFile = (recorded: Attachment) => {
      const kept = fileUniqueIdOfLink(recorded.url);
      // A link made before links kept the unique id: by the link.
      return kept !== null && typeof unique === 'string' ? kept === unique : recorded.url === file.attachment.url;
    };
    edits.push({ ...where, ...file, isRecordedFile });
  }
  if (words) {
    const added = file ? arrivingOf(read, attachmentOf).find((m) => m.messengerMessageId === words.messengerMessageId) : undefined;
    edits.push({ ...where, ...words, ...(added ? { added: { partOf: id, arriving: added } } : {}) });
  } else if (fileOf(read)) {
    // A file without words now: its caption was taken away.
    edits.push({ ...where, messengerMessageId: file ? captionNumberOf(id) : id, text: '' });
  }
  return edits;
}

/**
 * A group that became a supergroup, which has an id of its own: Telegram says so in the old group
 * (`migrate_to_chat_id`) and in the new one (`migrate_from_chat_id`), with service messages.
 */
export function moveOf(message: BotMessage | undefined): ChatMove | null {
  if (typeof message !== 'object' || message === null || typeof message.chat?.id !== 'number') return null;
  if (message.chat.type !== 'group' && message.chat.type !== 'supergroup') return null;
  const here = String(message.chat.id);
  if (typeof message.migrate_to_chat_id === 'number') return { chatType: 'telegroup', from: here, to: String(message.migrate_to_chat_id) };
  if (typeof message.migrate_from_chat_id === 'number') return { chatType: 'telegroup', from: String(message.migrate_from_chat_id), to: here };
  return null;
}

/**
 * A press of an inline button, as the gateway records it: a text message from the presser in the message's chat
 * whose words are the pressed button's text (the button is found on the message by its `callback_data`; the data
 * itself when it is not there), answering that message, numbered `cb:<query id>` so a press sent again is one.
 * Without its message (sent in inline mode) a press goes to the presser's private chat. Presses without data
 * (a game's) and in channels are not recorded.
 */
export function pressOf(query: BotCallbackQuery | undefined): ArrivingMessage | null {
  if (typeof query !== 'object' || query === null || typeof query.id !== 'string' || !isPerson(query.from)) return null;
  if (typeof query.data !== 'string') return null;
  const message = typeof query.message === 'object' && query.message !== null && typeof query.message.chat?.id === 'number' ? query.message : null;
  const chat = message ? chatOf(message.chat, query.from) : chatOf({ id: query.from.id, type: 'private' }, query.from);
  if (!chat) return null;
  return {
    ...chat,
    direction: 'inbound',
    phone: null,
    text: pressedText(message?.reply_markup?.inline_keyboard, query.data, 'callback_data') ?? query.data,
    attachment: null,
    messengerMessageId: `cb:${query.id}`,
    ...(message && typeof message.message_id === 'number' ? { quotedMessengerId: String(message.message_id) } : {}),
  };
}
