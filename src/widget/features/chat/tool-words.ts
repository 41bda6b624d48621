import { catalog } from '@/lib/i18n.ts';

/** What the chat screen's header tools say: marking a chat answered, and searching its messages. */
export const toolWords = catalog(
  {
    answered: {
      mark: 'Mark answered',
      label: 'Mark this chat answered without sending a message',
      notMarked: 'Not marked answered.',
    },
    search: {
      open: 'Search in this chat',
      close: 'Close the search',
      label: 'Search the messages of this chat',
      placeholder: 'Search messages…',
      results: 'Messages found',
      searching: 'Searching…',
      none: 'No message of this chat contains these words.',
      failed: 'Could not search the messages.',
      more: 'Show older matches',
      notLoaded: 'That message could not be found in the history.',
    },
  },
  {
    ru: {
      answered: {
        mark: 'Отвечено',
        label: 'Отметить чат отвеченным, не отправляя сообщения',
        notMarked: 'Не отмечено.',
      },
      search: {
        open: 'Поиск в этом чате',
        close: 'Закрыть поиск',
        label: 'Поиск по сообщениям этого чата',
        placeholder: 'Найти сообщения…',
        results: 'Найденные сообщения',
        searching: 'Поиск…',
        none: 'Ни одно сообщение этого чата не содержит этих слов.',
        failed: 'Не удалось выполнить поиск.',
        more: 'Показать более ранние',
        notLoaded: 'Это сообщение не нашлось в истории.',
      },
    },
  },
);
