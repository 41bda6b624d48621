import { catalog } from '@/lib/i18n.ts';

/** What the chat list says of its search across message texts, and of a row's menu. */
export const searchWords = catalog(
  {
    hits: {
      heading: 'Messages',
      items: 'Matching messages in all chats',
      none: 'No message contains these words.',
      failed: 'Could not search the messages.',
      more: 'Show older messages',
    },
    menu: {
      open: (chat: string) => `Actions for the chat with ${chat}`,
      label: 'Chat actions',
      answered: 'Mark as answered',
    },
  },
  {
    ru: {
      hits: {
        heading: 'Сообщения',
        items: 'Совпадения в сообщениях всех чатов',
        none: 'Ни одно сообщение не содержит этих слов.',
        failed: 'Не удалось выполнить поиск по сообщениям.',
        more: 'Показать более ранние',
      },
      menu: {
        open: (chat) => `Действия с чатом: ${chat}`,
        label: 'Действия с чатом',
        answered: 'Отметить отвеченным',
      },
    },
  },
);
