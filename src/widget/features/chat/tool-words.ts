import { catalog } from '@/lib/i18n.ts';

/** What the chat screen's header tools say: marking a chat answered, and searching its messages. */
export const toolWords = catalog(
  {
    answered: {
      mark: 'Mark answered',
      label: 'Mark this chat answered without sending a message',
      notMarked: 'Not marked answered.',
    },
    search: {
      open: 'Search in this chat',
      close: 'Close the search',
      label: 'Search the messages of this chat',
      placeholder: 'Search messages…',
      results: 'Messages found',
      searching: 'Searching…',
      none: 'No message of this chat contains these words.',
      failed: 'Could not search the messages.',
      more: 'Show older matches',
      notLoaded: 'That message could not be found in the history.',
    },
  },
  {
    ru: {
      answered: {
        mark: 'Отвечено',
        label: 'Отметить чат отвеченным, не отправляя сообщения',
        notMarked: 'Не отмечено.',
      },
      search: {
        open: 'Поиск в этом чате',
        close: 'Закрыть поиск',
        label: 'Поиск по сообщениям этого чата',
        placeholder: 'Найти сообщения…',
        results: 'Найденные сообщения',
        searching: 'Поиск…',
        none: 'Ни одно сообщение этого чата не содержит этих слов.',
        failed: 'Не удалось выполнить поиск.',
        more: 'Показать более ранние',
        notLoaded: 'Это сообщение не нашлось в истории.',
      },
    },
    es: {
      answered: {
        mark: 'Marcar respondido',
        label: 'Marcar este chat como respondido sin enviar un mensaje',
        notMarked: 'No se marcó como respondido.',
      },
      search: {
        open: 'Buscar en este chat',
        close: 'Cerrar la búsqueda',
        label: 'Buscar en los mensajes de este chat',
        placeholder: 'Buscar mensajes…',
        results: 'Mensajes encontrados',
        searching: 'Buscando…',
        none: 'Ningún mensaje de este chat contiene estas palabras.',
        failed: 'No se pudo buscar en los mensajes.',
        more: 'Mostrar coincidencias anteriores',
        notLoaded: 'Ese mensaje no se encontró en el historial.',
      },
    },
    pt: {
      answered: {
        mark: 'Marcar respondido',
        label: 'Marcar este chat como respondido sem enviar mensagem',
        notMarked: 'Não foi marcado como respondido.',
      },
      search: {
        open: 'Buscar neste chat',
        close: 'Fechar a busca',
        label: 'Buscar nas mensagens deste chat',
        placeholder: 'Buscar mensagens…',
        results: 'Mensagens encontradas',
        searching: 'Buscando…',
        none: 'Nenhuma mensagem deste chat contém estas palavras.',
        failed: 'Não foi possível buscar nas mensagens.',
        more: 'Mostrar resultados anteriores',
        notLoaded: 'Essa mensagem não foi encontrada no histórico.',
      },
    },
  },
);
