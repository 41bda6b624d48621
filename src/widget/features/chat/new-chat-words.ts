import { catalog } from '@/lib/i18n.ts';

/** Starting a chat from the inbox: the list's button, and the dialog's channel, contact and refusals. */
export const newChatWords = catalog(
  {
    open: 'New chat',
    title: 'New chat',
    channel: 'Channel',
    chooseChannel: 'Choose a channel',
    noChannel: 'No channel of the account can start a chat: the customer has to write first.',
    phone: 'Phone number',
    phoneHint: 'With the country code, e.g. +7 916 123-45-67',
    phoneOrUsername: 'Phone number or username',
    phoneOrUsernameHint: 'A number with the country code, or a username such as @anna_petrova',
    id: 'Contact ID',
    idHint: 'The contact’s ID in the messenger',
    name: 'Name (optional)',
    templatesOnly: 'This channel starts a chat with an approved template only.',
    problems: {
      empty: 'Enter the contact.',
      phone: 'Enter a number with the country code: 7 to 15 digits.',
      phone_or_username: 'Enter a number with the country code, or a username of 5 to 32 letters, digits or underscores starting with a letter.',
      id: 'Enter the ID without spaces.',
    },
    start: 'Open chat',
    cancel: 'Cancel',
  },
  {
    ru: {
      open: 'Новый чат',
      title: 'Новый чат',
      channel: 'Канал',
      chooseChannel: 'Выберите канал',
      noChannel: 'Ни один канал аккаунта не может начать чат: клиент должен написать первым.',
      phone: 'Номер телефона',
      phoneHint: 'С кодом страны, например +7 916 123-45-67',
      phoneOrUsername: 'Номер телефона или имя пользователя',
      phoneOrUsernameHint: 'Номер с кодом страны или имя пользователя, например @anna_petrova',
      id: 'ID контакта',
      idHint: 'ID контакта в мессенджере',
      name: 'Имя (необязательно)',
      templatesOnly: 'Через этот канал чат начинается только с одобренного шаблона.',
      problems: {
        empty: 'Укажите контакт.',
        phone: 'Укажите номер с кодом страны: от 7 до 15 цифр.',
        phone_or_username: 'Укажите номер с кодом страны или имя пользователя: от 5 до 32 латинских букв, цифр или подчёркиваний, первой идёт буква.',
        id: 'Укажите ID без пробелов.',
      },
      start: 'Открыть чат',
      cancel: 'Отмена',
    },
  },
);
