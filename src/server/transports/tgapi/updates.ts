import type { TelegramClient } from '@mtcute/core/client.js';
import type { DeleteMessageUpdate, HistoryReadUpdate, Message, RawUpdateInfo, UserTypingUpdate } from '@mtcute/core';
import type { ChatType } from '../../../contract/channels.ts';
import type { Attachment } from '../../../contract/messages.ts';
import type { GroupMember } from '../../core/groups/ports.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { captionNumberOf } from '../../core/messages/caption-number.ts';
import { privateReactionReport } from './heard-reactions.ts';

/** Where what a session hears goes: the channel's chats (messages, edits, deletes, reads, reactions) and its groups' members. */
export interface InboundSink {
  reports(reports: PlatformReport[]): Promise<void>;
  /** A customer is typing (or recording a voice note) in their private chat, or `stopped`: the frames are told, nothing is stored. */
  typing(chat: { chatType: ChatType; chatId: string; stopped?: true }): void;
  members(group: { chatId: string; name: string | null; members: GroupMember[] }): Promise<void>;
  /** The gateway's link to a message's file, opened through the session later. */
  fileLink(chatId: string, messageId: number): string;
}

/** A chat as the interface names it: a private chat by the user's id, a group by Telegram's marked id (negative). */
export function chatOf(message: Pick<Message, 'chat'>): { chatType: ChatType; chatId: string } {
  return { chatType: message.chat.type === 'user' ? 'telegram' : 'telegroup', chatId: String(message.chat.id) };
}

const MIME_BY_KIND: Readonly<Record<string, string>> = { photo: 'image/jpeg', voice: 'audio/ogg', sticker: 'image/webp' };

/** The message's file, behind the gateway's link (the file is fetched from Telegram when the link is opened). */
function attachmentOf(message: Message, sink: InboundSink): Attachment | null {
  const media = message.media as { type: string; fileName?: string | null; mimeType?: string; fileSize?: number | null } | null;
  if (!media || !['photo', 'video', 'audio', 'voice', 'document', 'sticker'].includes(media.type)) return null;
  const mimetype = media.mimeType || MIME_BY_KIND[media.type];
  return {
    url: sink.fileLink(String(message.chat.id), message.id),
    ...(media.fileName ? { name: media.fileName } : {}),
    ...(mimetype ? { mimetype } : {}),
    ...(typeof media.fileSize === 'number' ? { size: media.fileSize } : {}),
  };
}

/** The number of a file's caption, recorded as a message of its own (the interface's messages carry text or a file). */

/**
 * A message as the chat records it: its words, or its file and the file's caption as a second message
 * (`<id>:caption`), as the interface's messages carry text or an attachment. In a private chat the customer is the
 * chat; the account's own messages written on another device are outbound (echoes: one the gateway is sending itself
 * is found by its number, not recorded twice).
 */
export function arrivingOf(message: Message, sink: InboundSink): ArrivingMessage[] {
  if (message.isService) return [];
  const attachment = attachmentOf(message, sink);
  const text = message.text || null;
  if (!attachment && !text) return [];
  const chat = message.chat as { username?: string | null; phoneNumber?: string | null; displayName: string };
  const isPrivate = message.chat.type === 'user';
  const common = {
    ...chatOf(message),
    username: isPrivate ? (chat.username ?? null) : null,
    phone: isPrivate ? (chat.phoneNumber ?? null) : null,
    name: chat.displayName || null,
    direction: message.isOutgoing ? ('outbound' as const) : ('inbound' as const),
    ...(message.replyToMessage?.id ? { quotedMessengerId: String(message.replyToMessage.id) } : {}),
    ...(message.isOutgoing ? { echo: true } : {}),
  };
  const id = String(message.id);
  if (!attachment) return [{ ...common, text, attachment: null, messengerMessageId: id }];
  return [
    { ...common, text: null, attachment, messengerMessageId: id },
    ...(text ? [{ ...common, text, attachment: null, messengerMessageId: captionNumberOf(id) }] : []),
  ];
}

/** What a customer does that the frame shows as "typing…": writing, or recording a voice or video note. */
const TYPING: ReadonlySet<UserTypingUpdate['status']> = new Set(['typing', 'record_voice', 'record_round']);

/** Members that joined or left a group, from its service messages. */
function membersOf(message: Message): GroupMember[] {
  const action = message.action;
  if (!action) return [];
  const member = (id: number, status: GroupMember['status']): GroupMember => ({ memberId: String(id), name: null, avatarUrl: null, status });
  switch (action.type) {
    case 'users_added':
    case 'chat_created':
      return action.users.map((id) => member(id, 'in_group'));
    case 'user_joined_link':
      return [member(message.sender.id, 'in_group')];
    case 'user_left':
      return [member(message.sender.id, 'deleted')];
    case 'user_removed':
      return [member(action.user, 'deleted')];
    default:
      return [];
  }
}

/**
 * Attaches a session's handlers. Each update is recorded before the next (`track` keeps the order and holds the
 * session's saved position behind it). A deletion in a private chat or a basic group names message numbers only (they
 * are unique per account there), so the store is asked for each among the chats it was sent in, by the echo's chat.
 */
export function listenForUpdates(client: TelegramClient, sink: InboundSink, track: (work: Promise<unknown>) => void, chatOfMessage: (id: number) => { chatType: ChatType; chatId: string } | undefined): void {
  let chain: Promise<unknown> = Promise.resolve();
  const inOrder = (work: () => Promise<void>) => {
    chain = chain.then(work, work);
    track(chain);
  };
  client.onNewMessage.add((message: Message) =>
    inOrder(async () => {
      const members = message.chat.type !== 'user' ? membersOf(message) : [];
      if (members.length > 0) await sink.members({ chatId: String(message.chat.id), name: message.chat.displayName || null, members });
      const arriving = arrivingOf(message, sink);
      if (arriving.length > 0) await sink.reports(arriving.map((m) => ({ kind: 'message' as const, message: m })));
    }),
  );
  client.onEditMessage.add((message: Message) =>
    inOrder(async () => {
      const [first, caption] = arrivingOf(message, sink);
      if (!first) return;
      const where = { ...chatOf(message), messengerMessageId: String(message.id) };
      // A file's words are its caption's message: a caption changed or taken away is an edit of that one, and a
      // caption given to a file that had none arrives as that message.
      const reports: PlatformReport[] = first.attachment
        ? [
            { kind: 'edit', edit: { ...where, attachment: first.attachment } },
            { kind: 'edit', edit: { ...where, messengerMessageId: captionNumberOf(message.id), text: caption?.text ?? '', ...(caption ? { added: { partOf: where.messengerMessageId, arriving: caption } } : {}) } },
          ]
        : [{ kind: 'edit', edit: { ...where, text: first.text ?? '' } }];
      // In a private chat Telegram tells a reaction as the message edited without a mark (`edit_hide`), carrying its
      // reactions now: the customer's is recorded as it stands (an edit of the words carries them too, unchanged).
      const reaction = message.chat.type === 'user' ? privateReactionReport(message.chat.id, message.id, message.reactions?.raw) : null;
      await sink.reports(reaction ? [...reports, reaction] : reports);
    }),
  );
  client.onDeleteMessage.add((update: DeleteMessageUpdate) =>
    inOrder(async () => {
      const reports: PlatformReport[] = [];
      for (const id of update.messageIds) {
        const chat = update.channelId ? { chatType: 'telegroup' as const, chatId: `-100${update.channelId}` } : chatOfMessage(id);
        if (chat) reports.push({ kind: 'delete', delete: { ...chat, messengerMessageId: String(id) } });
      }
      if (reports.length > 0) await sink.reports(reports);
    }),
  );
  // The same, as `updateMessageReactions` (the library leaves it raw): the message's reactions now, by its chat.
  client.onRawUpdate.add(({ update }: RawUpdateInfo) => {
    if (update._ !== 'updateMessageReactions' || update.peer._ !== 'peerUser') return;
    const reaction = privateReactionReport(update.peer.userId, update.msgId, update.reactions);
    if (reaction) inOrder(() => sink.reports([reaction]));
  });
  // A customer typing (or recording a voice note) in their private chat; a cancel (they stopped) ends it at once.
  client.onUserTyping.add((update: UserTypingUpdate) => {
    if (update.chatType !== 'user') return;
    const chat = { chatType: 'telegram' as const, chatId: String(update.chatId) };
    if (TYPING.has(update.status)) sink.typing(chat);
    else if (update.status === 'cancel') sink.typing({ ...chat, stopped: true });
  });
  client.onHistoryRead.add((update: HistoryReadUpdate) =>
    inOrder(async () => {
      if (!update.isOutbox) return;
      const chatType: ChatType = update.chatId > 0 ? 'telegram' : 'telegroup';
      await sink.reports([{ kind: 'read', read: { chatType, chatId: String(update.chatId), messengerMessageId: String(update.maxReadId) } }]);
    }),
  );
}
