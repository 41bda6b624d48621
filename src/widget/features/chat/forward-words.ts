import { catalog } from '@/lib/i18n.ts';

/** What forwarding a message to another chat says: the message's menu item, the dialog and its outcome. */
export const forwardWords = catalog(
  {
    forward: 'Forward',
    forwardLabel: 'Forward this message to another chat',
    title: 'Forward the message',
    search: 'Search chats to forward to',
    searchPlaceholder: 'Search by name, phone or text',
    chats: 'Chats that can take this message',
    loading: 'Loading chats…',
    loadFailed: 'Could not load the chats.',
    none: 'No other chat can take this message.',
    more: 'Load more chats',
    send: 'Forward',
    sending: 'Forwarding…',
    close: 'Close',
    notSent: 'Not forwarded.',
    sent: (title: string) => `Forwarded to ${title}.`,
    openChat: 'Open that chat',
  },
  {
    ru: {
      forward: 'Переслать',
      forwardLabel: 'Переслать это сообщение в другой чат',
      title: 'Переслать сообщение',
      search: 'Найти чат для пересылки',
      searchPlaceholder: 'Имя, телефон или текст',
      chats: 'Чаты, куда можно переслать это сообщение',
      loading: 'Загрузка чатов…',
      loadFailed: 'Не удалось загрузить чаты.',
      none: 'Нет другого чата, куда можно переслать это сообщение.',
      more: 'Загрузить ещё чаты',
      send: 'Переслать',
      sending: 'Пересылка…',
      close: 'Закрыть',
      notSent: 'Не переслано.',
      sent: (title: string) => `Переслано: ${title}.`,
      openChat: 'Открыть этот чат',
    },
  },
);
