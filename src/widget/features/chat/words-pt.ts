import { plural } from '@/lib/i18n.ts';
import type { ChatWords } from './words-en.ts';

/** The chat screen in Portuguese. */
export const pt: ChatWords = {
  list: {
    label: 'Chats',
    items: 'Lista de chats',
    search: 'Buscar chats',
    searchPlaceholder: 'Buscar por nome, telefone ou texto',
    waiting: (n) => plural('pt', n, { one: '# chat aguarda resposta', other: '# chats aguardam resposta' }),
    loading: 'Carregando chats…',
    loadFailed: 'Não foi possível carregar os chats',
    noMatch: (query) => `Nenhum chat corresponde a “${query}”.`,
    empty: 'Ainda não há chats.',
    loadingMore: 'Carregando…',
    loadMore: 'Carregar mais chats',
    newChat: 'Novo chat',
  },
  row: {
    deleted: 'Apagada · ',
    noMessages: 'Ainda não há mensagens',
    unanswered: (n) => plural('pt', n, { one: '# sem resposta', other: '# sem resposta' }),
  },
  chat: {
    unknownContact: 'Contato desconhecido',
    you: 'Você: ',
    attachment: 'Anexo',
    template: 'Modelo',
    transports: {
      telegram: 'Bot do Telegram',
      tgapi: 'Telegram',
      wapi: 'WhatsApp Business',
      whatsapp: 'WhatsApp',
      instAPI: 'Instagram',
      viber: 'Viber',
      avito: 'Avito',
      max: 'MAX',
      maxbot: 'Bot do MAX',
      vk: 'VK',
    },
  },
  screen: { title: 'Chats', empty: 'Escolha um chat para ler e responder.' },
  tryAgain: 'Tentar de novo',
  /** Between the days of a chat's history, and on a row's date. */
  days: {
    today: 'Hoje',
    yesterday: 'Ontem',
  },
  /** How far a message the agent sent got, as its ticks say. */
  status: {
    sending: 'Enviando',
    accepted: 'Aceita pelo gateway',
    sent: 'Enviada',
    delivered: 'Entregue',
    read: 'Lida',
    failed: 'Não entregue',
  },
};
