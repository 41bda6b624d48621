import { Type, type Static } from 'typebox';

const Chat = Type.Object({
  chatType: Type.String(),
  chatId: Type.Optional(Type.String()),
  username: Type.Optional(Type.String({ description: 'Telegram and MAX: without @.' })),
  phone: Type.Optional(Type.String({ description: 'Telegram and MAX: digits with the country code.' })),
  name: Type.Optional(Type.String({ description: 'The contact\'s name; a new chat is named by it.' })),
});

/** `POST /v3/iframe`: the chat frame for one CRM user, every chat (`global`) or those of one card (`card`). */
export const V3IframeBody = Type.Object({
  user: Type.Object({ id: Type.Union([Type.String(), Type.Number()]), name: Type.Optional(Type.String()) }),
  scope: Type.Enum(['global', 'card']),
  filter: Type.Optional(Type.Array(Chat, { description: 'The card\'s chats (scope card).' })),
  activeChat: Type.Optional(
    Type.Object({ channelId: Type.Optional(Type.String()), chatType: Type.String(), chatId: Type.Optional(Type.String()), username: Type.Optional(Type.String()), phone: Type.Optional(Type.String()) }),
  ),
  options: Type.Optional(
    Type.Object({
      clientType: Type.Optional(Type.String()),
      useDealsEvents: Type.Optional(Type.Boolean({ description: 'The frame tells the page when a contact or deal is to be created.' })),
      useMessageEvents: Type.Optional(Type.Boolean({ description: 'The frame tells the page of chats opened and the unanswered count.' })),
    }),
  ),
});
export type V3IframeBody = Static<typeof V3IframeBody>;

export const V3IframeUrl = Type.Object({ url: Type.String({ description: 'Open it within an hour in an iframe on an allowed origin, or in a tab.' }) });
