import { catalog, plural } from '@/lib/i18n.ts';

/** The words of new-message notifications and their settings. */
export const notifyWords = catalog(
  {
    settings: 'Notifications',
    sound: 'Play a sound for new messages',
    desktop: 'Show browser notifications',
    allow: 'Allow browser notifications',
    blocked: 'The browser blocks notifications for this page: allow them in its site settings.',
    unsupported: 'This browser cannot show notifications here.',
    unread: (n: number) => plural('en', n, { one: '# unread message', other: '# unread messages' }),
    newMessage: 'New message',
    file: 'File',
    close: 'Close',
  },
  {
    ru: {
      settings: 'Уведомления',
      sound: 'Звук при новом сообщении',
      desktop: 'Уведомления браузера',
      allow: 'Разрешить уведомления браузера',
      blocked: 'Браузер запрещает уведомления этой странице: разрешите их в настройках сайта.',
      unsupported: 'Этот браузер не может показывать здесь уведомления.',
      unread: (n) => plural('ru', n, { one: '# непрочитанное сообщение', few: '# непрочитанных сообщения', many: '# непрочитанных сообщений', other: '# непрочитанного сообщения' }),
      newMessage: 'Новое сообщение',
      file: 'Файл',
      close: 'Закрыть',
    },
  },
);
