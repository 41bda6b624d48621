import { catalog, plural } from '@/lib/i18n.ts';

/** What the chat screen says of the chat's contact and deals in the CRM. */
export const crmWords = catalog(
  {
    label: 'Contact in the CRM',
    loading: 'Loading the CRM contact…',
    loadFailed: 'Could not load the CRM contact.',
    tryAgain: 'Try again',
    contact: 'Contact:',
    noContact: 'No contact in the CRM.',
    opens: (name: string) => `${name} (opens in a new tab)`,
    deals: (n: number) => plural('en', n, { one: '# open deal', other: '# open deals' }),
    noDeals: 'No open deals.',
    createContact: 'Create contact',
    createDeal: 'Create deal',
    asking: 'Asking the CRM…',
    askedContact: 'The CRM was asked to create the contact.',
    askedDeal: 'The CRM was asked to create a deal.',
    notAsked: 'The CRM was not asked.',
    dismiss: 'Dismiss',
  },
  {
    ru: {
      label: 'Контакт в CRM',
      loading: 'Загружаем контакт из CRM…',
      loadFailed: 'Не удалось загрузить контакт из CRM.',
      tryAgain: 'Повторить',
      contact: 'Контакт:',
      noContact: 'Контакта в CRM нет.',
      opens: (name: string) => `${name} (откроется в новой вкладке)`,
      deals: (n: number) => plural('ru', n, { one: '# открытая сделка', few: '# открытые сделки', many: '# открытых сделок', other: '# открытой сделки' }),
      noDeals: 'Открытых сделок нет.',
      createContact: 'Создать контакт',
      createDeal: 'Создать сделку',
      asking: 'Отправляем запрос в CRM…',
      askedContact: 'CRM получила запрос на создание контакта.',
      askedDeal: 'CRM получила запрос на создание сделки.',
      notAsked: 'Запрос в CRM не отправлен.',
      dismiss: 'Закрыть',
    },
  },
);
