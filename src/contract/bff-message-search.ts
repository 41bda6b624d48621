import { Type, type Static } from 'typebox';
import { BffChat } from './bff-chats.ts';
import { messageSearchLimits } from './search-terms.ts';

/**
 * Finding messages by their words across every chat the reader may see, for the chat list's search. A message
 * matches when each word of the query starts one of its words (case-insensitive): "deliv tomor" finds
 * "Delivery is tomorrow". Words are letters and digits; anything else separates them.
 */

export { messageSearchLimits, searchTerms } from './search-terms.ts';

export const MessagesSearchQuery = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200, description: 'Words each matched as the start of a word of the text, in any case.' }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: '`next_cursor` of the previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: messageSearchLimits.max, default: messageSearchLimits.default })),
  },
  { additionalProperties: false },
);
export type MessagesSearchQuery = Static<typeof MessagesSearchQuery>;

export const MessageHit = Type.Object({
  message_id: Type.String({ format: 'uuid' }),
  chat_ref: Type.String({ format: 'uuid', description: 'Its chat, one of `chats`.' }),
  direction: Type.Enum(['inbound', 'outbound']),
  text: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});
export type MessageHit = Static<typeof MessageHit>;

export const MessageHits = Type.Object({
  /** Newest first; open one in its chat's history with `around=<message_id>`. */
  hits: Type.Array(MessageHit),
  /** The chats of this page's hits, as the chat list shows them, so a hit opens its chat at once. */
  chats: Type.Array(BffChat),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type MessageHits = Static<typeof MessageHits>;
