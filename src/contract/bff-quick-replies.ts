import { Type, type Static } from 'typebox';

/**
 * Quick replies: an account's saved answers, managed in the chat frame and inserted by typing `/` and a shortcut
 * in its composer. Not in the original interface (an extension of the frame's own /bff API).
 */

/** How many an account keeps: a list an agent can still scan, and one request's worth to read. */
export const MAX_QUICK_REPLIES = 200;
export const MAX_SHORTCUT_LENGTH = 32;
export const MAX_QUICK_REPLY_TEXT = 4096;

export const QuickReplyInput = Type.Object(
  {
    shortcut: Type.String({
      minLength: 1,
      maxLength: MAX_SHORTCUT_LENGTH,
      pattern: '^[^\\s/]+$',
      description: 'What the agent types after `/`: one word, no spaces or slashes; unique in the account whatever its case.',
    }),
    text: Type.String({ minLength: 1, maxLength: MAX_QUICK_REPLY_TEXT, pattern: '\\S', description: 'The answer put into the composer.' }),
  },
  { additionalProperties: false },
);
export type QuickReplyInput = Static<typeof QuickReplyInput>;

export const QuickReply = Type.Object({
  id: Type.String(),
  shortcut: Type.String(),
  text: Type.String(),
  updated_at: Type.String({ description: 'ISO 8601.' }),
});
export type QuickReply = Static<typeof QuickReply>;

export const QuickReplyList = Type.Object({
  replies: Type.Array(QuickReply, { description: 'In shortcut order.' }),
  may_manage: Type.Boolean({ description: 'Whether this agent may add, change and delete them (a manager, or every user while the account sets no roles).' }),
  max: Type.Integer({ description: 'How many the account may keep.' }),
});
export type QuickReplyList = Static<typeof QuickReplyList>;

export const QuickReplyParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }) });
