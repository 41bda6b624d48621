import { plural } from '@/lib/i18n.ts';
import type { ChatWords } from './words-en.ts';

/** The chat screen in Russian. */
export const ru: ChatWords = {
  list: {
    label: 'Чаты',
    items: 'Список чатов',
    search: 'Поиск чатов',
    searchPlaceholder: 'Поиск: имя, телефон, текст',
    waiting: (n) => plural('ru', n, { one: '# чат ждёт ответа', few: '# чата ждут ответа', many: '# чатов ждут ответа', other: '# чата ждут ответа' }),
    loading: 'Загрузка чатов…',
    loadFailed: 'Не удалось загрузить чаты',
    noMatch: (query) => `По запросу «${query}» чатов не найдено.`,
    empty: 'Чатов пока нет.',
    loadingMore: 'Загрузка…',
    loadMore: 'Показать ещё',
    newChat: 'Новый чат',
  },
  row: {
    deleted: 'Удалено · ',
    noMessages: 'Сообщений пока нет',
    unanswered: (n) =>
      plural('ru', n, { one: '# сообщение без ответа', few: '# сообщения без ответа', many: '# сообщений без ответа', other: '# сообщения без ответа' }),
  },
  chat: {
    unknownContact: 'Неизвестный контакт',
    you: 'Вы: ',
    attachment: 'Вложение',
    template: 'Шаблон',
    transports: {
      telegram: 'Telegram-бот',
      tgapi: 'Telegram',
      wapi: 'WhatsApp Business',
      whatsapp: 'WhatsApp',
      instAPI: 'Instagram',
      viber: 'Viber',
      avito: 'Авито',
      max: 'MAX',
      maxbot: 'MAX-бот',
      vk: 'ВКонтакте',
    },
  },
  screen: { title: 'Чаты', empty: 'Выберите чат, чтобы прочитать его и ответить.' },
  tryAgain: 'Повторить',
  /** Between the days of a chat's history, and on a row's date. */
  days: {
    today: 'Сегодня',
    yesterday: 'Вчера',
  },
  /** How far a message the agent sent got, as its ticks say. */
  status: {
    sending: 'Отправляется',
    accepted: 'Принято шлюзом',
    sent: 'Отправлено',
    delivered: 'Доставлено',
    read: 'Прочитано',
    failed: 'Не доставлено',
  },
};
