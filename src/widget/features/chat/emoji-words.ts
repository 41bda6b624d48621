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
    es: {
      open: 'Emoji',
      label: 'Selector de emoji',
      search: 'Buscar emoji',
      loading: 'Cargando emoji…',
      empty: 'No se encontraron emoji.',
    },
    pt: {
      open: 'Emoji',
      label: 'Seletor de emoji',
      search: 'Buscar emoji',
      loading: 'Carregando emoji…',
      empty: 'Nenhum emoji encontrado.',
    },
  },
);
