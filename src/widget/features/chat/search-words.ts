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
    es: {
      hits: {
        heading: 'Mensajes',
        items: 'Mensajes que coinciden en todos los chats',
        none: 'Ningún mensaje contiene estas palabras.',
        failed: 'No se pudo buscar en los mensajes.',
        more: 'Mostrar mensajes anteriores',
      },
      menu: {
        open: (chat) => `Acciones del chat con ${chat}`,
        label: 'Acciones del chat',
        answered: 'Marcar como respondido',
      },
    },
    pt: {
      hits: {
        heading: 'Mensagens',
        items: 'Mensagens correspondentes em todos os chats',
        none: 'Nenhuma mensagem contém estas palavras.',
        failed: 'Não foi possível buscar nas mensagens.',
        more: 'Mostrar mensagens anteriores',
      },
      menu: {
        open: (chat) => `Ações do chat com ${chat}`,
        label: 'Ações do chat',
        answered: 'Marcar como respondido',
      },
    },
  },
);
