import type { ChannelStatus, ConnectFlow, Transport } from '../../../../contract/channels.ts';
import { catalog, type Lang } from '@/lib/i18n.ts';

/** How a status reads in the list: the words, and whether it is fine, on its way, or needs the admin. */
export type Tone = 'ok' | 'progress' | 'off';

type InitReason = 'qr' | 'sync' | 'wait_for_password' | 'wait_for_code';
type OffReason = 'qridle' | 'foreignphone' | 'blocked' | 'rejected' | 'not_enough_money' | 'openelsewhere';

interface StatusWords {
  /** What an admin calls each transport. */
  transports: Record<Transport, string>;
  connected: string;
  /** Connecting, by the reason the gateway gives. */
  init: Record<InitReason, string>;
  /** Connecting, with no reason said: at the provider's page (a URL is known), or otherwise. */
  atProvider: string;
  connecting: string;
  /** Off, by the reason the gateway gives. */
  off: Record<OffReason, string>;
  /** Off, the authorization ended: who ended it depends on how the channel was connected. */
  signedOut: { qr: string; bot_token: string; other: string };
  offPlain: string;
}

/** A channel's status in each language (the list and the connect panel both say it). */
export const statusWords = catalog<StatusWords>(
  {
    transports: {
      telegram: 'Telegram bot',
      tgapi: 'Telegram account',
      wapi: 'WhatsApp Business API',
      whatsapp: 'WhatsApp',
      instAPI: 'Instagram',
      viber: 'Viber',
      avito: 'Avito',
      max: 'MAX account',
      maxbot: 'MAX bot',
      vk: 'VK',
    },
    connected: 'Connected',
    init: {
      qr: 'Waiting for the QR code to be scanned',
      sync: 'Scanned, loading the chat history',
      wait_for_password: 'Waiting for the two-factor password',
      wait_for_code: 'Waiting for a confirmation code',
    },
    atProvider: 'Waiting for authorization at the provider',
    connecting: 'Connecting',
    off: {
      qridle: 'Off: the QR code was not scanned in time',
      foreignphone: 'Off: a different phone number scanned the code',
      blocked: 'Off: blocked by the platform',
      rejected: 'Off: rejected by the platform',
      not_enough_money: 'Off: not paid',
      openelsewhere: 'Off: connected in another account of the service',
    },
    signedOut: { qr: 'Off: signed out on the phone', bot_token: 'Off: the bot token was revoked', other: 'Off: the authorization was revoked' },
    offPlain: 'Off',
  },
  {
    ru: {
      // Brand first, so a name reads the same at the start of a line and inside a sentence («Подключить Telegram-аккаунт»).
      transports: {
        telegram: 'Telegram-бот',
        tgapi: 'Telegram-аккаунт',
        wapi: 'WhatsApp Business API',
        whatsapp: 'WhatsApp',
        instAPI: 'Instagram',
        viber: 'Viber',
        avito: 'Авито',
        max: 'MAX-аккаунт',
        maxbot: 'MAX-бот',
        vk: 'ВКонтакте',
      },
      connected: 'Подключён',
      init: {
        qr: 'Ожидает сканирования QR-кода',
        sync: 'QR-код отсканирован, загружается история чатов',
        wait_for_password: 'Ожидает облачного пароля',
        wait_for_code: 'Ожидает кода подтверждения',
      },
      atProvider: 'Ожидает авторизации у провайдера',
      connecting: 'Подключается',
      off: {
        qridle: 'Отключён: QR-код не отсканировали вовремя',
        foreignphone: 'Отключён: код отсканирован с другого номера',
        blocked: 'Отключён: заблокирован платформой',
        rejected: 'Отключён: отклонён платформой',
        not_enough_money: 'Отключён: не оплачен',
        openelsewhere: 'Отключён: используется в другом аккаунте сервиса',
      },
      signedOut: { qr: 'Отключён: выполнен выход на телефоне', bot_token: 'Отключён: токен бота отозван', other: 'Отключён: авторизация отозвана' },
      offPlain: 'Отключён',
    },
    es: {
      transports: {
        telegram: 'Bot de Telegram',
        tgapi: 'Cuenta de Telegram',
        wapi: 'WhatsApp Business API',
        whatsapp: 'WhatsApp',
        instAPI: 'Instagram',
        viber: 'Viber',
        avito: 'Avito',
        max: 'Cuenta de MAX',
        maxbot: 'Bot de MAX',
        vk: 'VK',
      },
      connected: 'Conectado',
      init: {
        qr: 'Esperando a que se escanee el código QR',
        sync: 'Escaneado, cargando el historial de chats',
        wait_for_password: 'Esperando la contraseña de dos pasos',
        wait_for_code: 'Esperando un código de confirmación',
      },
      atProvider: 'Esperando la autorización en el proveedor',
      connecting: 'Conectando',
      off: {
        qridle: 'Desactivado: el código QR no se escaneó a tiempo',
        foreignphone: 'Desactivado: otro número de teléfono escaneó el código',
        blocked: 'Desactivado: bloqueado por la plataforma',
        rejected: 'Desactivado: rechazado por la plataforma',
        not_enough_money: 'Desactivado: sin pagar',
        openelsewhere: 'Desactivado: conectado en otra cuenta del servicio',
      },
      signedOut: { qr: 'Desactivado: se cerró la sesión en el teléfono', bot_token: 'Desactivado: se revocó el token del bot', other: 'Desactivado: se revocó la autorización' },
      offPlain: 'Desactivado',
    },
    pt: {
      transports: {
        telegram: 'Bot do Telegram',
        tgapi: 'Conta do Telegram',
        wapi: 'WhatsApp Business API',
        whatsapp: 'WhatsApp',
        instAPI: 'Instagram',
        viber: 'Viber',
        avito: 'Avito',
        max: 'Conta do MAX',
        maxbot: 'Bot do MAX',
        vk: 'VK',
      },
      connected: 'Conectado',
      init: {
        qr: 'Aguardando a leitura do código QR',
        sync: 'Escaneado, carregando o histórico de chats',
        wait_for_password: 'Aguardando a senha de duas etapas',
        wait_for_code: 'Aguardando um código de confirmação',
      },
      atProvider: 'Aguardando a autorização no provedor',
      connecting: 'Conectando',
      off: {
        qridle: 'Desligado: o código QR não foi escaneado a tempo',
        foreignphone: 'Desligado: outro número de telefone escaneou o código',
        blocked: 'Desligado: bloqueado pela plataforma',
        rejected: 'Desligado: rejeitado pela plataforma',
        not_enough_money: 'Desligado: não pago',
        openelsewhere: 'Desligado: conectado em outra conta do serviço',
      },
      signedOut: { qr: 'Desligado: sessão encerrada no celular', bot_token: 'Desligado: o token do bot foi revogado', other: 'Desligado: a autorização foi revogada' },
      offPlain: 'Desligado',
    },
  },
);

/** What an admin calls a transport, in the screen's language. */
export const transportName = (transport: Transport, lang: Lang): string => statusWords[lang].transports[transport];

/** The app the admin opens on the phone to scan a QR of a transport (brand names: the same in every language). */
export const phoneApps: Partial<Record<Transport, string>> = { whatsapp: 'WhatsApp', tgapi: 'Telegram', viber: 'Viber', max: 'MAX' };

const said = <K extends string>(table: Record<K, string>, key: string | null): string | undefined =>
  key !== null && Object.hasOwn(table, key) ? table[key as K] : undefined;

/** A channel's status and reason in plain words, in the screen's language. */
export function describeStatus(
  channel: {
    status: ChannelStatus;
    reason: string | null;
    url?: string | undefined;
    capabilities?: { connect: ConnectFlow };
  },
  lang: Lang,
): { text: string; tone: Tone } {
  const w = statusWords[lang];
  if (channel.status === 'active') return { text: w.connected, tone: 'ok' };
  if (channel.status === 'init') return { text: said(w.init, channel.reason) ?? (channel.url ? w.atProvider : w.connecting), tone: 'progress' };
  if (channel.reason === 'unauthorized') {
    const connect = channel.capabilities?.connect;
    return { text: connect === 'qr' || connect === 'bot_token' ? w.signedOut[connect] : w.signedOut.other, tone: 'off' };
  }
  return { text: said(w.off, channel.reason) ?? w.offPlain, tone: 'off' };
}

/** Who the channel is, as far as the messenger told: name, phone, user name, each said once. */
export function channelIdentity(channel: { name: string | null; phone: string | null; username: string | null }): string {
  const name = channel.name ?? '';
  const phone = channel.phone?.replace(/^\+/, '');
  const parts = [
    name,
    // A profile name is often the number itself ("+7 900 …"): it is not repeated.
    phone && !name.replace(/\D/g, '').includes(phone) ? `+${phone}` : '',
    channel.username && !name.includes(channel.username) ? `@${channel.username}` : '',
  ];
  return parts.filter((p) => p !== '').join(' · ');
}
