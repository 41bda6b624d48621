import { catalog } from '@/lib/i18n.ts';

/** The words of the channel list (ChannelList, ChannelRow). */
export const listWords = catalog(
  {
    title: 'Your channels',
    loading: 'Loading channels…',
    failed: 'Could not load the channels:',
    retry: 'Try again',
    empty: 'No channels yet. Connect the first one.',
    list: 'Channels',
    continue: 'Continue',
    reconnect: 'Reconnect',
    delete: 'Delete',
    deleteQuestion: (name: string) => `Delete this ${name} channel?`,
    deleteChats: 'Also delete its chats and messages',
    deleteChatsHint: 'Otherwise they stay for history and export.',
    deleting: 'Deleting…',
    deleteChannel: 'Delete channel',
    cancel: 'Cancel',
  },
  {
    ru: {
      title: 'Ваши каналы',
      loading: 'Загрузка каналов…',
      failed: 'Не удалось загрузить каналы:',
      retry: 'Повторить',
      empty: 'Каналов пока нет. Подключите первый.',
      list: 'Каналы',
      continue: 'Продолжить',
      reconnect: 'Переподключить',
      delete: 'Удалить',
      deleteQuestion: (name) => `Удалить этот канал (${name})?`,
      deleteChats: 'Также удалить чаты и сообщения канала',
      deleteChatsHint: 'Иначе они останутся в истории и будут доступны для выгрузки.',
      deleting: 'Удаление…',
      deleteChannel: 'Удалить канал',
      cancel: 'Отмена',
    },
  },
);
