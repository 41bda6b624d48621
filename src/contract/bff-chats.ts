import { Type, type Static, type TSchema } from 'typebox';
import { transports } from './channels.ts';
import { Attachment, ChatTypeSchema, Keyboard, messageStatuses, SendMessageResult, SentTemplate } from './messages.ts';

/**
 * The chat frame's reading side (/bff/chats): the chat list and a chat's history. A chat is named by
 * `chat_ref`, the gateway's own id of the conversation (stable while the messenger's `chat_id` may still be
 * unknown for a send addressed by username or phone). Cursors are opaque: pass back what a page returned.
 */

export const chatPageLimits = { default: 30, max: 100 } as const;
export const messagePageLimits = { default: 50, max: 200 } as const;

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Cursor = Type.String({ minLength: 1, maxLength: 512, description: 'Opaque cursor from a previous page.' });
const Timestamp = Type.String({ format: 'date-time' });

export const ChatRefParams = Type.Object({ chat_ref: Type.String({ format: 'uuid', description: 'The `chat_ref` of a listed chat.' }) });

export const ChatsQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Case-insensitive part of the contact name (CRM or messenger), username, phone, chat id or last message text.',
      }),
    ),
    channel_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only chats of this channel.' })),
    cursor: Type.Optional(Cursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: chatPageLimits.max, default: chatPageLimits.default })),
  },
  { additionalProperties: false },
);
export type ChatsQuery = Static<typeof ChatsQuery>;

/** The newest message of a chat, as much as a list row shows. */
export const MessagePreview = Type.Object({
  message_id: Type.String({ format: 'uuid' }),
  direction: Type.Enum(['inbound', 'outbound']),
  status: Type.Enum([...messageStatuses]),
  kind: Type.Enum(['text', 'attachment', 'template'], { description: 'Which content the message carries.' }),
  text: nullable(Type.String({ description: 'The text (for a template, its filled text).' })),
  attachment_name: nullable(Type.String()),
  created_at: Timestamp,
  deleted: Type.Boolean({ description: 'Deleted messages keep their text, marked as deleted.' }),
});
export type MessagePreview = Static<typeof MessagePreview>;

export const BffChat = Type.Object({
  chat_ref: Type.String({ format: 'uuid', description: 'The gateway’s id of the chat: /bff/chats/{chat_ref}/messages.' }),
  channel_id: Type.String({ format: 'uuid' }),
  transport: Type.Enum([...transports]),
  channel_name: nullable(Type.String()),
  chat_type: ChatTypeSchema,
  chat_id: nullable(Type.String({ description: 'The messenger’s id; null until the messenger resolved a username or phone.' })),
  username: nullable(Type.String()),
  phone: nullable(Type.String()),
  name: nullable(Type.String({ description: 'What to show: the CRM contact name when the CRM set one, else the messenger name.' })),
  contact_name: nullable(Type.String({ description: 'The CRM contact name (POST /v2/contacts or the iframe link).' })),
  messenger_name: nullable(Type.String({ description: 'The name the messenger reported.' })),
  unanswered_count: Type.Integer({ minimum: 0, description: 'Inbound messages since the last outbound message that reset the counter.' }),
  last_activity_at: Timestamp,
  last_message: nullable(MessagePreview),
});
export type BffChat = Static<typeof BffChat>;

export const ChatPage = Type.Object({
  chats: Type.Array(BffChat, { description: 'Chats with unanswered messages first, then the rest; each group by last activity, newest first.' }),
  next_cursor: nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last page.' })),
});
export type ChatPage = Static<typeof ChatPage>;

/** For the host's badge before any push arrives: the same sum the frame keeps from `chat.unanswered_update`. */
export const UnansweredSummary = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Unanswered messages over the session’s chats.' }),
  chats: Type.Integer({ minimum: 0, description: 'Chats with at least one unanswered message.' }),
});
export type UnansweredSummary = Static<typeof UnansweredSummary>;

export const MessagesQuery = Type.Object(
  {
    before: Type.Optional(Type.String({ ...Cursor, description: 'Messages older than this cursor (`older_cursor` of a page).' })),
    after: Type.Optional(Type.String({ ...Cursor, description: 'Messages newer than this cursor (`newer_cursor` of a page).' })),
    around: Type.Optional(Type.String({ format: 'uuid', description: 'A window of messages centred on this message id.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: messagePageLimits.max, default: messagePageLimits.default })),
  },
  { additionalProperties: false },
);
export type MessagesQuery = Static<typeof MessagesQuery>;

/** A quoted message, as much as the quote block shows. */
export const QuotedMessage = Type.Object({
  message_id: Type.String({ format: 'uuid' }),
  direction: Type.Enum(['inbound', 'outbound']),
  text: nullable(Type.String()),
  attachment_name: nullable(Type.String()),
  deleted: Type.Boolean(),
});

/** One emoji reaction to a message: the agent's side (`agent`) or a customer's (`customer`, named by `reactor`). */
export const MessageReaction = Type.Object({
  emoji: Type.String({ minLength: 1, maxLength: 32 }),
  by: Type.Enum(['agent', 'customer']),
  reactor: Type.String({ description: '`agent`, or the messenger’s id of the customer who reacted.' }),
});
export type MessageReaction = Static<typeof MessageReaction>;

export const BffMessage = Type.Object({
  message_id: Type.String({ format: 'uuid' }),
  request_id: nullable(Type.String({ format: 'uuid', description: 'The id the send request returned (outbound messages sent through the gateway).' })),
  chat_ref: Type.String({ format: 'uuid' }),
  channel_id: Type.String({ format: 'uuid' }),
  direction: Type.Enum(['inbound', 'outbound']),
  status: Type.Enum([...messageStatuses]),
  reason: nullable(Type.String()),
  text: nullable(Type.String()),
  attachment: nullable(Attachment),
  template: nullable(SentTemplate),
  keyboard: nullable(Keyboard),
  quoted_message: nullable(QuotedMessage),
  author: nullable(
    Type.Object({
      crm_user_id: Type.String(),
      name: nullable(Type.String({ description: 'Null when the CRM has not named the user (POST /v2/users).' })),
    }),
  ),
  created_at: Timestamp,
  edited_at: nullable(Timestamp),
  deleted_at: nullable(Timestamp),
  deleted: Type.Boolean({ description: 'Deleted messages keep their content, marked as deleted.' }),
  caption_of: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'The file message (on the same page or the one before) these words are the caption of: the same message at the messenger, recorded as two (`<id>` and `<id>:caption`). The frame draws them as one.',
    }),
  ),
  reactions: Type.Optional(Type.Array(MessageReaction, { description: 'Emoji reactions, one per reactor; absent when there are none.' })),
  held: Type.Optional(
    nullable(
      Type.Object(
        { reason: Type.String({ description: 'gap, daily_cap, first_contact_cap, quiet_hours or slowed_down.' }), until: Timestamp },
        { description: 'Extension: an accepted send of a personal channel its pacing holds, why and until when.' },
      ),
    ),
  ),
});
export type BffMessage = Static<typeof BffMessage>;

/**
 * One page of history. `messages` is ALWAYS oldest first (the order the chat shows them), whichever way the
 * page was read. `older_cursor` / `newer_cursor` continue towards older / newer messages (as `before` /
 * `after`); null when there is nothing more that way (a newer message arriving later comes by socket.io).
 */
export const MessagePage = Type.Object({
  messages: Type.Array(BffMessage),
  older_cursor: nullable(Type.String()),
  newer_cursor: nullable(Type.String()),
});
export type MessagePage = Static<typeof MessagePage>;

/**
 * The answer to the frame's send. A file sent with words (`text` and `attachment`) goes as one message where the
 * messenger shows a caption; else the words follow as a message of their own, whose request id this names.
 */
export const FrameSendResult = Type.Object({
  ...SendMessageResult.properties,
  caption_request_id: Type.Optional(Type.String({ format: 'uuid', description: 'The request id of the words, sent after the file as a message of their own.' })),
});
export type FrameSendResult = Static<typeof FrameSendResult>;
