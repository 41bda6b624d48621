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
    es: {
      screenTitle: 'Canales',
      connectTitle: 'Conectar un canal',
      reconnectTitle: (name) => `Reconectar ${name}`,
      reconnect: 'Reconectar',
      reenter: 'Las credenciales no se guardan donde esta pantalla pueda leerlas: introdúzcalas de nuevo.',
      missingChannel: 'No se encontró el canal que reconectar; puede que se haya eliminado. Puede conectar uno nuevo.',
      loading: 'Cargando los mensajeros…',
      failed: 'No se pudieron cargar los mensajeros:',
      retry: 'Reintentar',
      picker: 'Mensajero',
      howItConnects: {
        qr: 'Código QR',
        bot_token: 'Token del bot',
        redirect_url: 'En el proveedor',
        code: 'Código de autorización',
        fields: 'Datos de la cuenta',
        iframe: 'En VK',
      },
      whatFollows: {
        qr: 'A continuación aparece un código QR; escanéelo con el teléfono que tiene la cuenta.',
        redirect_url: 'A continuación seguirá en la página del proveedor para autorizar el número.',
        iframe: 'A continuación seguirá en VK para autorizar la comunidad.',
      },
      unavailable: (name) => `Los canales de ${name} no se pueden conectar desde esta pantalla.`,
      choose: 'Elija el mensajero de la cuenta que desea conectar.',
      connect: (name) => `Conectar ${name}`,
      connecting: 'Conectando…',
      cancel: 'Cancelar',
    },
    pt: {
      screenTitle: 'Canais',
      connectTitle: 'Conectar um canal',
      reconnectTitle: (name) => `Reconectar ${name}`,
      reconnect: 'Reconectar',
      reenter: 'As credenciais não ficam guardadas onde esta tela possa lê-las: digite-as de novo.',
      missingChannel: 'O canal a reconectar não foi encontrado; talvez tenha sido apagado. Você pode conectar um novo.',
      loading: 'Carregando os mensageiros…',
      failed: 'Não foi possível carregar os mensageiros:',
      retry: 'Tentar de novo',
      picker: 'Mensageiro',
      howItConnects: {
        qr: 'Código QR',
        bot_token: 'Token do bot',
        redirect_url: 'No provedor',
        code: 'Código de autorização',
        fields: 'Dados da conta',
        iframe: 'No VK',
      },
      whatFollows: {
        qr: 'Em seguida aparece um código QR; escaneie-o com o celular que tem a conta.',
        redirect_url: 'Em seguida você continua na página do provedor para autorizar o número.',
        iframe: 'Em seguida você continua no VK para autorizar a comunidade.',
      },
      unavailable: (name) => `Canais de ${name} não podem ser conectados nesta tela.`,
      choose: 'Escolha o mensageiro da conta a conectar.',
      connect: (name) => `Conectar ${name}`,
      connecting: 'Conectando…',
      cancel: 'Cancelar',
    },
  },
);
