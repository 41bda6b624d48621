import { plural } from '@/lib/i18n.ts';
import type { ShownStatus } from './store/message.ts';

/**
 * What the chat screen's first view says in English: the list, a row, what a chat and its last message are called,
 * the days and a message's ticks. The open chat's words are `view-words-<lang>.ts`, loaded with its code.
 */
export const en = {
  list: {
    label: 'Chats',
    items: 'Chat list',
    search: 'Search chats',
    searchPlaceholder: 'Search by name, phone or text',
    waiting: (n: number) => plural('en', n, { one: '# chat waits for an answer', other: '# chats wait for an answer' }),
    loading: 'Loading chats…',
    loadFailed: 'Could not load the chats',
    noMatch: (query: string) => `No chats match “${query}”.`,
    empty: 'No chats yet.',
    loadingMore: 'Loading…',
    loadMore: 'Load more chats',
    newChat: 'New chat',
  },
  row: {
    deleted: 'Deleted · ',
    noMessages: 'No messages yet',
    unanswered: (n: number) => `${n} unanswered`,
  },
  /** What the list and headers call a chat and its last message. */
  chat: {
    unknownContact: 'Unknown contact',
    /** Before the last message of a chat when the agent's side sent it. */
    you: 'You: ',
    attachment: 'Attachment',
    template: 'Template',
    /** By transport (the chat's type where no channel is known yet); an unnamed one is shown by its code. */
    transports: {
      telegram: 'Telegram bot',
      tgapi: 'Telegram',
      wapi: 'WhatsApp Business',
      whatsapp: 'WhatsApp',
      instAPI: 'Instagram',
      viber: 'Viber',
      avito: 'Avito',
      max: 'MAX',
      maxbot: 'MAX bot',
      vk: 'VK',
    } as Record<string, string>,
  },
  screen: { title: 'Chats', empty: 'Choose a chat to read and answer it.' },
  tryAgain: 'Try again',
  /** Between the days of a chat's history, and on a row's date. */
  days: {
    today: 'Today',
    yesterday: 'Yesterday',
  },
  /** How far a message the agent sent got, as its ticks say. */
  status: {
    sending: 'Sending',
    accepted: 'Accepted by the gateway',
    sent: 'Sent',
    delivered: 'Delivered',
    read: 'Read',
    failed: 'Not delivered',
  } satisfies Record<ShownStatus, string>,
};

/** The shape every language's words for the chat list take. */
export type ChatWords = typeof en;
