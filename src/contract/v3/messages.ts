import { Type, type Static } from 'typebox';

/** Chat types a v3 send names (WABA channels use `whatsapp`). */
export const v3ChatTypes = ['whatsapp', 'whatsgroup', 'viber', 'instagram', 'telegram', 'telegroup', 'vk', 'avito', 'max', 'maxgroup'] as const;

const Button = Type.Object(
  {
    text: Type.Optional(Type.String()),
    type: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    callbackData: Type.Optional(Type.String()),
    payload: Type.Optional(Type.String()),
    intent: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * Buttons in the channel's layout: a flat list for WABA (interactive, or `{payload}` per quick reply of a
 * template), rows of buttons for Telegram and MAX bots.
 */
export const ButtonsObject = Type.Object(
  {
    buttons: Type.Optional(Type.Union([Type.Array(Button, { maxItems: 1000 }), Type.Array(Type.Array(Button, { maxItems: 100 }), { maxItems: 100 })])),
    replyMarkup: Type.Optional(Type.Enum(['inline', 'reply'])),
    removeKeyboard: Type.Optional(Type.Boolean()),
    oneTimeKeyboard: Type.Optional(Type.Boolean()),
    chatType: Type.Optional(Type.String({ description: 'Ignored: the channel decides the layout.' })),
  },
  { additionalProperties: false },
);
export type ButtonsObject = Static<typeof ButtonsObject>;

export const V3SendBody = Type.Object(
  {
    channelId: Type.String({ format: 'uuid' }),
    chatType: Type.Enum([...v3ChatTypes]),
    chatId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'May be left out for telegram and max when `phone` or `username` is given.' })),
    text: Type.Optional(Type.String({ maxLength: 65_536, description: 'Or a template by its code: `@template: <templateGuid> { [[value1]]; [[value2]] }`.' })),
    contentUri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Public link to the file, fetched without redirects.' })),
    refMessageId: Type.Optional(Type.String({ format: 'uuid', description: 'The message quoted.' })),
    crmUserId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'The author, a user of /v3/users; ignored with a sidecar key.' })),
    crmMessageId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Makes the call idempotent for 60 seconds (400 REPEATED_CRM_MESSAGE_ID).' })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Telegram: user name without @.' })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Telegram and MAX: international number, digits only.' })),
    clearUnanswered: Type.Optional(Type.Boolean({ description: 'false keeps the unanswered counter; absent resets it.' })),
    templateId: Type.Optional(Type.String({ format: 'uuid', description: 'WABA template (`templateGuid`).' })),
    templateValues: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 100 })),
    buttonsObject: Type.Optional(ButtonsObject),
  },
  { additionalProperties: false },
);
export type V3SendBody = Static<typeof V3SendBody>;

export const V3MessageRef = Type.Object({
  messageId: Type.String({ format: 'uuid', description: 'The message\'s id, as later webhooks name it.' }),
  chatId: Type.Union([Type.String(), Type.Null()], { description: 'The chat reached; for a send by phone or username, the messenger\'s id once resolved.' }),
});
export type V3MessageRef = Static<typeof V3MessageRef>;

export const V3MessageIdParams = Type.Object({ messageId: Type.String({ format: 'uuid' }) });

export const V3EditBody = Type.Object(
  {
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 })),
    contentUri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    crmUserId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type V3EditBody = Static<typeof V3EditBody>;
