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
    es: {
      another: 'Conectar otro canal',
      loading: 'Cargando el canal…',
      deleted: 'Este canal se eliminó.',
      connected: 'Conectado',
      notScanned: 'El código no se escaneó a tiempo.',
      newCode: 'Mostrar un código nuevo',
      syncing: 'Escaneado. Cargando el historial de chats; tardará un momento.',
      authorizeVk: 'Autorice la comunidad en VK.',
      authorizeProvider: 'Autorice el número en el proveedor.',
      updatesWhenDone: 'Esta pantalla se actualiza sola cuando termine.',
      continueVk: 'Continuar en VK',
      continueProvider: 'Continuar en el proveedor',
      newTab: '(se abre en una pestaña nueva)',
      waiting: 'Conectando; esta pantalla se actualiza sola.',
      reconnect: 'Reconectar',
      qrAlt: (app) => `Código QR para escanear con ${app ?? 'el mensajero'}`,
      gettingCode: 'Obteniendo el código…',
      scanSteps: (app) => [
        `Abra ${app ?? 'el mensajero'} en el teléfono con la cuenta que desea conectar.`,
        app === 'Telegram'
          ? 'Vaya a Ajustes, luego Dispositivos, y elija Vincular dispositivo de escritorio.'
          : app === 'WhatsApp'
            ? 'Vaya a Ajustes, luego Dispositivos vinculados, y elija Vincular un dispositivo.'
            : 'Vaya a sus dispositivos vinculados y elija vincular un dispositivo nuevo.',
        'Apunte el teléfono a este código. Esta pantalla se actualiza sola.',
      ],
      renewed: (app) => `El código se renueva cada ${app === 'Telegram' ? 30 : 20} segundos aproximadamente.`,
      byPhone: 'Vincular con el número de teléfono',
      phoneForRefusal: 'El número de teléfono',
      enterCode: (phone) => `Introduzca este código en el teléfono con el número +${phone}:`,
      codeLabel: (spelled) => `Código de vinculación: ${spelled}`,
      pairingSteps: [
        'Abra WhatsApp en el teléfono y vaya a Dispositivos vinculados.',
        'Elija Vincular un dispositivo y luego Vincular con el número de teléfono.',
        'Escriba el código de arriba. Esta pantalla se actualiza sola.',
      ],
      anotherNumber: 'Usar otro número',
      scanInstead: 'Escanear un código QR',
      phoneLabel: 'Número de teléfono de la cuenta de WhatsApp',
      phoneHint: 'Con el código de país, p. ej. +34 612 345 678.',
      getCode: 'Obtener un código',
      enterPassword: 'Introduzca la contraseña.',
      wrongPassword: 'Contraseña incorrecta. Revísela e inténtelo de nuevo.',
      passwordLead: 'Esta cuenta está protegida con una contraseña de dos pasos. Introdúzcala para terminar de conectar.',
      passwordLabel: 'Contraseña de dos pasos',
      checking: 'Comprobando…',
      confirmPassword: 'Confirmar la contraseña',
    },
    pt: {
      another: 'Conectar outro canal',
      loading: 'Carregando o canal…',
      deleted: 'Este canal foi apagado.',
      connected: 'Conectado',
      notScanned: 'O código não foi escaneado a tempo.',
      newCode: 'Mostrar um novo código',
      syncing: 'Escaneado. Carregando o histórico de chats; isso leva um momento.',
      authorizeVk: 'Autorize a comunidade no VK.',
      authorizeProvider: 'Autorize o número no provedor.',
      updatesWhenDone: 'Esta tela se atualiza sozinha quando terminar.',
      continueVk: 'Continuar no VK',
      continueProvider: 'Continuar no provedor',
      newTab: '(abre em uma nova aba)',
      waiting: 'Conectando; esta tela se atualiza sozinha.',
      reconnect: 'Reconectar',
      qrAlt: (app) => `Código QR para escanear com ${app ?? 'o mensageiro'}`,
      gettingCode: 'Obtendo o código…',
      scanSteps: (app) => [
        `Abra ${app ?? 'o mensageiro'} no celular com a conta a conectar.`,
        app === 'Telegram'
          ? 'Vá em Configurações, depois Dispositivos, e escolha Conectar dispositivo desktop.'
          : app === 'WhatsApp'
            ? 'Vá em Configurações, depois Dispositivos conectados, e escolha Conectar um dispositivo.'
            : 'Vá aos dispositivos conectados e escolha conectar um novo dispositivo.',
        'Aponte o celular para este código. Esta tela se atualiza sozinha.',
      ],
      renewed: (app) => `O código é renovado a cada ${app === 'Telegram' ? 30 : 20} segundos, aproximadamente.`,
      byPhone: 'Conectar com número de telefone',
      phoneForRefusal: 'O número de telefone',
      enterCode: (phone) => `Digite este código no celular com o número +${phone}:`,
      codeLabel: (spelled) => `Código de conexão: ${spelled}`,
      pairingSteps: [
        'Abra o WhatsApp no celular e vá em Dispositivos conectados.',
        'Escolha Conectar um dispositivo e depois Conectar com número de telefone.',
        'Digite o código acima. Esta tela se atualiza sozinha.',
      ],
      anotherNumber: 'Usar outro número',
      scanInstead: 'Escanear um código QR',
      phoneLabel: 'Número de telefone da conta do WhatsApp',
      phoneHint: 'Com o código do país, p. ex. +55 11 91234-5678.',
      getCode: 'Obter um código',
      enterPassword: 'Digite a senha.',
      wrongPassword: 'Senha incorreta. Confira a senha e tente de novo.',
      passwordLead: 'Esta conta é protegida por uma senha de duas etapas. Digite-a para concluir a conexão.',
      passwordLabel: 'Senha de duas etapas',
      checking: 'Verificando…',
      confirmPassword: 'Confirmar a senha',
    },
  },
);
