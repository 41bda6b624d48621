import { catalog } from '@/lib/i18n.ts';

/** The app to open on the phone, where the transport names none. */
const theApp = (app: string | undefined) => app ?? 'the messenger';

/** The words of one channel on its way (ConnectFlow, ScanStep, PairingCode, TwoFactorForm). */
export const flowWords = catalog<{
  another: string;
  loading: string;
  deleted: string;
  connected: string;
  notScanned: string;
  newCode: string;
  syncing: string;
  authorizeVk: string;
  authorizeProvider: string;
  updatesWhenDone: string;
  continueVk: string;
  continueProvider: string;
  newTab: string;
  waiting: string;
  reconnect: string;
  /** The QR step; `app` is the phone app of the transport, if it has one of its own. */
  qrAlt: (app: string | undefined) => string;
  gettingCode: string;
  scanSteps: (app: string | undefined) => [string, string, string];
  /** How often the app issues a new code: Telegram's login tokens last 30 s, WhatsApp's codes about 20 s. */
  renewed: (app: string | undefined) => string;
  byPhone: string;
  /** The pairing code step (WhatsApp). */
  phoneForRefusal: string;
  enterCode: (phone: string) => string;
  codeLabel: (spelled: string) => string;
  pairingSteps: [string, string, string];
  anotherNumber: string;
  scanInstead: string;
  phoneLabel: string;
  phoneHint: string;
  getCode: string;
  /** The two-factor password step. */
  enterPassword: string;
  /** The gateway's code says "code"; the admin typed a password, and is told so in those words. */
  wrongPassword: string;
  passwordLead: string;
  passwordLabel: string;
  checking: string;
  confirmPassword: string;
}>(
  {
    another: 'Connect another channel',
    loading: 'Loading the channel…',
    deleted: 'This channel was deleted.',
    connected: 'Connected',
    notScanned: 'The code was not scanned in time.',
    newCode: 'Show a new code',
    syncing: 'Scanned. Loading the chat history; this takes a moment.',
    authorizeVk: 'Authorize the community at VK.',
    authorizeProvider: 'Authorize the number at the provider.',
    updatesWhenDone: 'This screen updates by itself when it is done.',
    continueVk: 'Continue at VK',
    continueProvider: 'Continue at the provider',
    newTab: '(opens in a new tab)',
    waiting: 'Connecting; this screen updates by itself.',
    reconnect: 'Reconnect',
    qrAlt: (app) => `QR code to scan with ${theApp(app)}`,
    gettingCode: 'Getting the code…',
    scanSteps: (app) => [
      `Open ${theApp(app)} on the phone with the account to connect.`,
      app === 'Telegram'
        ? 'Go to Settings, then Devices, and choose Link Desktop Device.'
        : app === 'WhatsApp'
          ? 'Go to Settings, then Linked devices, and choose Link a device.'
          : 'Go to its linked devices and choose to link a new device.',
      'Point the phone at this code. This screen updates by itself.',
    ],
    renewed: (app) => `The code is renewed about every ${app === 'Telegram' ? 30 : 20} seconds.`,
    byPhone: 'Link with phone number instead',
    phoneForRefusal: 'The phone number',
    enterCode: (phone) => `Enter this code on the phone with the number +${phone}:`,
    codeLabel: (spelled) => `Pairing code: ${spelled}`,
    pairingSteps: [
      'Open WhatsApp on the phone and go to Linked devices.',
      'Choose Link a device, then Link with phone number instead.',
      'Type the code above. This screen updates by itself.',
    ],
    anotherNumber: 'Use another number',
    scanInstead: 'Scan a QR code instead',
    phoneLabel: 'Phone number of the WhatsApp account',
    phoneHint: 'With the country code, e.g. +7 900 111 22 33.',
    getCode: 'Get a code',
    enterPassword: 'Enter the password.',
    wrongPassword: 'Wrong password. Check the password and try again.',
    passwordLead: 'This account is protected by a two-factor password. Enter it to finish connecting.',
    passwordLabel: 'Two-factor password',
    checking: 'Checking…',
    confirmPassword: 'Confirm password',
  },
  {
    ru: {
      another: 'Подключить другой канал',
      loading: 'Загрузка канала…',
      deleted: 'Этот канал удалён.',
      connected: 'Подключён',
      notScanned: 'QR-код не отсканировали вовремя.',
      newCode: 'Показать новый код',
      syncing: 'Код отсканирован. Загружается история чатов, это займёт немного времени.',
      authorizeVk: 'Авторизуйте сообщество во ВКонтакте.',
      authorizeProvider: 'Авторизуйте номер на странице провайдера.',
      updatesWhenDone: 'Когда всё будет готово, экран обновится сам.',
      continueVk: 'Продолжить во ВКонтакте',
      continueProvider: 'Продолжить у провайдера',
      newTab: '(откроется в новой вкладке)',
      waiting: 'Идёт подключение, экран обновится сам.',
      reconnect: 'Переподключить',
      qrAlt: (app) => (app ? `QR-код для сканирования в приложении ${app}` : 'QR-код для сканирования в мессенджере'),
      gettingCode: 'Получение кода…',
      scanSteps: (app) => [
        app ? `Откройте ${app} на телефоне с подключаемым аккаунтом.` : 'Откройте мессенджер на телефоне с подключаемым аккаунтом.',
        app === 'Telegram'
          ? 'Откройте «Настройки» → «Устройства» и нажмите «Подключить устройство».'
          : app === 'WhatsApp'
            ? 'Откройте «Настройки» → «Связанные устройства» и нажмите «Привязка устройства».'
            : 'Откройте в настройках раздел связанных устройств и подключите новое устройство.',
        'Наведите камеру телефона на этот код. Экран обновится сам.',
      ],
      renewed: (app) => `Код обновляется примерно каждые ${app === 'Telegram' ? 30 : 20} секунд.`,
      byPhone: 'Привязать по номеру телефона',
      phoneForRefusal: 'Номер телефона',
      enterCode: (phone) => `Введите этот код на телефоне с номером +${phone}:`,
      codeLabel: (spelled) => `Код для привязки: ${spelled}`,
      pairingSteps: [
        'Откройте WhatsApp на телефоне и перейдите в «Связанные устройства».',
        'Нажмите «Привязка устройства», затем «Привязать по номеру телефона».',
        'Введите код, показанный выше. Экран обновится сам.',
      ],
      anotherNumber: 'Указать другой номер',
      scanInstead: 'Отсканировать QR-код',
      phoneLabel: 'Номер телефона аккаунта WhatsApp',
      phoneHint: 'С кодом страны, например +7 900 111 22 33.',
      getCode: 'Получить код',
      enterPassword: 'Введите пароль.',
      wrongPassword: 'Неверный пароль. Проверьте пароль и попробуйте ещё раз.',
      passwordLead: 'В аккаунте включена двухэтапная аутентификация. Введите облачный пароль, чтобы завершить подключение.',
      passwordLabel: 'Облачный пароль',
      checking: 'Проверка…',
      confirmPassword: 'Продолжить',
    },
  },
);
