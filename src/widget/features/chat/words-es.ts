import { plural } from '@/lib/i18n.ts';
import type { ChatWords } from './words-en.ts';

/** The chat screen in Spanish. */
export const es: ChatWords = {
  list: {
    label: 'Chats',
    items: 'Lista de chats',
    search: 'Buscar chats',
    searchPlaceholder: 'Buscar por nombre, teléfono o texto',
    waiting: (n) => plural('es', n, { one: '# chat espera respuesta', other: '# chats esperan respuesta' }),
    loading: 'Cargando chats…',
    loadFailed: 'No se pudieron cargar los chats',
    noMatch: (query) => `Ningún chat coincide con «${query}».`,
    empty: 'Aún no hay chats.',
    loadingMore: 'Cargando…',
    loadMore: 'Cargar más chats',
    newChat: 'Chat nuevo',
  },
  row: {
    deleted: 'Eliminado · ',
    noMessages: 'Aún no hay mensajes',
    unanswered: (n) => plural('es', n, { one: '# sin responder', other: '# sin responder' }),
  },
  chat: {
    unknownContact: 'Contacto desconocido',
    you: 'Usted: ',
    attachment: 'Adjunto',
    template: 'Plantilla',
    transports: {
      telegram: 'Bot de Telegram',
      tgapi: 'Telegram',
      wapi: 'WhatsApp Business',
      whatsapp: 'WhatsApp',
      instAPI: 'Instagram',
      viber: 'Viber',
      avito: 'Avito',
      max: 'MAX',
      maxbot: 'Bot de MAX',
      vk: 'VK',
    },
  },
  screen: { title: 'Chats', empty: 'Elija un chat para leerlo y responder.' },
  tryAgain: 'Reintentar',
  /** Between the days of a chat's history, and on a row's date. */
  days: {
    today: 'Hoy',
    yesterday: 'Ayer',
  },
  /** How far a message the agent sent got, as its ticks say. */
  status: {
    sending: 'Enviando',
    accepted: 'Aceptado por la pasarela',
    sent: 'Enviado',
    delivered: 'Entregado',
    read: 'Leído',
    failed: 'No entregado',
  },
};
