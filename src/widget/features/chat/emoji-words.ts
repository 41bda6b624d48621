import { catalog } from '@/lib/i18n.ts';

/** The composer's emoji picker. */
export const emojiWords = catalog(
  {
    open: 'Emoji',
    label: 'Emoji picker',
    search: 'Search emoji',
    loading: 'Loading emoji…',
    empty: 'No emoji found.',
  },
  {
    ru: {
      open: 'Эмодзи',
      label: 'Выбор эмодзи',
      search: 'Найти эмодзи',
      loading: 'Загрузка эмодзи…',
      empty: 'Эмодзи не найдены.',
    },
  },
);
