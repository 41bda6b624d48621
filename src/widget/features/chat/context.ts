import type { EmbedContext } from '../../lib/embed-context.ts';

/** What the chat screen needs of the frame it runs in: the embed context, as the app starts it. */
export type ChatContext = EmbedContext;
