import { Type, type Static } from 'typebox';
import { BffMessage } from './bff-chats.ts';

/** The agent's tools on one chat of the chat frame: marking it answered without sending, and finding its messages by text. */

export const searchPageLimits = { default: 20, max: 50 } as const;

export const ChatAnswered = Type.Object({
  chat_ref: Type.String({ format: 'uuid' }),
  unanswered_count: Type.Integer({ minimum: 0, description: 'Always 0 once marked.' }),
  changed: Type.Boolean({ description: 'False when the chat was not waiting for an answer.' }),
});
export type ChatAnswered = Static<typeof ChatAnswered>;

export const MessageSearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, description: 'Case-insensitive part of the message text.' }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: '`next_cursor` of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: searchPageLimits.max, default: searchPageLimits.default })),
  },
  { additionalProperties: false },
);
export type MessageSearchQuery = Static<typeof MessageSearchQuery>;

export const MessageMatches = Type.Object({
  /** Newest first; open one with the history's `around`. */
  messages: Type.Array(BffMessage),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type MessageMatches = Static<typeof MessageMatches>;
