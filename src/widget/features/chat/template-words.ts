import type { TemplateCategory } from '../../../contract/templates.ts';
import { catalog, plural } from '@/lib/i18n.ts';

/** What the chat screen says of keyboards on messages and of the template form. */
export const templateWords = catalog(
  {
    keyboard: {
      inline: 'Buttons under the message',
      reply: 'Reply buttons shown to the customer',
      replyCaption: 'Reply buttons:',
      opens: (url: string) => `Opens ${url}`,
    },
    templates: {
      open: 'Template',
      openLabel: 'Send a template message',
      title: 'Templates',
      close: 'Close the templates',
      list: 'Approved templates',
      loading: 'Loading templates…',
      loadFailed: 'Could not load the templates.',
      tryAgain: 'Try again',
      none: 'This channel has no approved templates yet.',
      back: '← All templates',
      value: (n: number) => `Value {{${n}}}`,
      preview: 'The customer will read',
      buttons: 'Buttons',
      fillAll: 'Fill in every value to send.',
      send: 'Send template',
      notSent: 'Not sent.',
      windowClosed: (hours: number) =>
        `The customer has not written ${plural('en', hours, { one: 'in the last hour', other: 'in the last # hours' })}: only a template can reach them now.`,
      windowClosedUntilTheyWrite: (hours: number) =>
        `The customer has not written ${plural('en', hours, { one: 'in the last hour', other: 'in the last # hours' })}: a message reaches them only once they write again.`,
      categories: { MARKETING: 'Marketing', UTILITY: 'Utility', AUTHENTICATION: 'Authentication' } satisfies Record<TemplateCategory, string>,
    },
  },
  {
    ru: {
      keyboard: {
        inline: 'Кнопки под сообщением',
        reply: 'Кнопки ответа у клиента',
        replyCaption: 'Кнопки ответа:',
        opens: (url) => `Открывает ${url}`,
      },
      templates: {
        open: 'Шаблон',
        openLabel: 'Отправить сообщение по шаблону',
        title: 'Шаблоны',
        close: 'Закрыть шаблоны',
        list: 'Одобренные шаблоны',
        loading: 'Загрузка шаблонов…',
        loadFailed: 'Не удалось загрузить шаблоны.',
        tryAgain: 'Повторить',
        none: 'У этого канала пока нет одобренных шаблонов.',
        back: '← Все шаблоны',
        value: (n) => `Значение {{${n}}}`,
        preview: 'Клиент прочитает',
        buttons: 'Кнопки',
        fillAll: 'Чтобы отправить, заполните все значения.',
        send: 'Отправить шаблон',
        notSent: 'Не отправлено.',
        windowClosed: (hours) =>
          `Клиент не писал ${plural('ru', hours, { one: 'последний # час', few: 'последние # часа', many: 'последние # часов', other: 'последние # часа' })}: сейчас до него дойдёт только сообщение по шаблону.`,
        windowClosedUntilTheyWrite: (hours) =>
          `Клиент не писал ${plural('ru', hours, { one: 'последний # час', few: 'последние # часа', many: 'последние # часов', other: 'последние # часа' })}: сообщение дойдёт до него, только когда он напишет снова.`,
        categories: { MARKETING: 'Маркетинг', UTILITY: 'Сервисный', AUTHENTICATION: 'Аутентификация' },
      },
    },
  },
);
