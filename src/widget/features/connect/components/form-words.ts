import type { ConnectFlow } from '../../../../contract/channels.ts';
import { catalog } from '@/lib/i18n.ts';

/** The words of the connect side's forms (ConnectScreen, ConnectForm, CredentialsForm). */
export const formWords = catalog<{
  screenTitle: string;
  connectTitle: string;
  reconnectTitle: (name: string) => string;
  reconnect: string;
  reenter: string;
  /** A frame opened for a channel that is gone. */
  missingChannel: string;
  loading: string;
  failed: string;
  retry: string;
  picker: string;
  /** Said as each transport's description in the picker. */
  howItConnects: Record<ConnectFlow, string>;
  /** What comes after the connect button, where it is not a form. */
  whatFollows: Partial<Record<ConnectFlow, string>>;
  unavailable: (name: string) => string;
  choose: string;
  connect: (name: string) => string;
  connecting: string;
  cancel: string;
}>(
  {
    screenTitle: 'Channels',
    connectTitle: 'Connect a channel',
    reconnectTitle: (name) => `Reconnect ${name}`,
    reconnect: 'Reconnect',
    reenter: 'The credentials are not kept where this screen can read them: enter them again.',
    missingChannel: 'The channel to reconnect was not found; it may have been deleted. You can connect a new one.',
    loading: 'Loading the messengers…',
    failed: 'Could not load the messengers:',
    retry: 'Try again',
    picker: 'Messenger',
    howItConnects: {
      qr: 'QR code',
      bot_token: 'Bot token',
      redirect_url: 'At the provider',
      code: 'Authorization code',
      fields: 'Account details',
      iframe: 'At VK',
    },
    whatFollows: {
      qr: 'A QR code appears next; scan it with the phone that has the account.',
      redirect_url: 'Next you continue at the provider’s page to authorize the number.',
      iframe: 'Next you continue at VK to authorize the community.',
    },
    unavailable: (name) => `${name} channels cannot be connected from this screen.`,
    choose: 'Choose the messenger of the account to connect.',
    connect: (name) => `Connect ${name}`,
    connecting: 'Connecting…',
    cancel: 'Cancel',
  },
  {
    ru: {
      screenTitle: 'Каналы',
    connectTitle: 'Подключить канал',
      reconnectTitle: (name) => `Переподключить ${name}`,
      reconnect: 'Переподключить',
      reenter: 'Сохранённые данные для входа здесь недоступны: введите их ещё раз.',
      missingChannel: 'Канал для переподключения не найден: возможно, его удалили. Можно подключить новый.',
      loading: 'Загрузка списка мессенджеров…',
      failed: 'Не удалось загрузить мессенджеры:',
      retry: 'Повторить',
      picker: 'Мессенджер',
      howItConnects: {
        qr: 'QR-код',
        bot_token: 'Токен бота',
        redirect_url: 'Через провайдера',
        code: 'Код авторизации',
        fields: 'Данные аккаунта',
        iframe: 'Через ВКонтакте',
      },
      whatFollows: {
        qr: 'Затем появится QR-код: отсканируйте его телефоном, на котором открыт аккаунт.',
        redirect_url: 'Затем вы перейдёте на страницу провайдера, чтобы авторизовать номер.',
        iframe: 'Затем вы перейдёте во ВКонтакте, чтобы авторизовать сообщество.',
      },
      unavailable: (name) => `Каналы «${name}» нельзя подключить на этом экране.`,
      choose: 'Выберите мессенджер, который хотите подключить.',
      connect: (name) => `Подключить ${name}`,
      connecting: 'Подключение…',
      cancel: 'Отмена',
    },
  },
);
