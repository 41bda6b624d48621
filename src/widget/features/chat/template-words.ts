import type { TemplateCategory } from '../../../contract/templates.ts';
import { catalog, plural } from '@/lib/i18n.ts';

/** What the chat screen says of keyboards on messages and of the template form. */
export const templateWords = catalog(
  {
    keyboard: {
      inline: 'Buttons under the message',
      reply: 'Reply buttons shown to the customer',
      replyCaption: 'Reply buttons:',
      opens: (url: string) => `Opens ${url}`,
    },
    templates: {
      open: 'Template',
      openLabel: 'Send a template message',
      title: 'Templates',
      close: 'Close the templates',
      list: 'Approved templates',
      loading: 'Loading templates…',
      loadFailed: 'Could not load the templates.',
      tryAgain: 'Try again',
      none: 'This channel has no approved templates yet.',
      back: '← All templates',
      value: (n: number) => `Value {{${n}}}`,
      preview: 'The customer will read',
      buttons: 'Buttons',
      fillAll: 'Fill in every value to send.',
      send: 'Send template',
      notSent: 'Not sent.',
      windowClosed: (hours: number) =>
        `The customer has not written ${plural('en', hours, { one: 'in the last hour', other: 'in the last # hours' })}: only a template can reach them now.`,
      windowClosedUntilTheyWrite: (hours: number) =>
        `The customer has not written ${plural('en', hours, { one: 'in the last hour', other: 'in the last # hours' })}: a message reaches them only once they write again.`,
      categories: { MARKETING: 'Marketing', UTILITY: 'Utility', AUTHENTICATION: 'Authentication' } satisfies Record<TemplateCategory, string>,
    },
  },
  {
    ru: {
      keyboard: {
        inline: 'Кнопки под сообщением',
        reply: 'Кнопки ответа у клиента',
        replyCaption: 'Кнопки ответа:',
        opens: (url) => `Открывает ${url}`,
      },
      templates: {
        open: 'Шаблон',
        openLabel: 'Отправить сообщение по шаблону',
        title: 'Шаблоны',
        close: 'Закрыть шаблоны',
        list: 'Одобренные шаблоны',
        loading: 'Загрузка шаблонов…',
        loadFailed: 'Не удалось загрузить шаблоны.',
        tryAgain: 'Повторить',
        none: 'У этого канала пока нет одобренных шаблонов.',
        back: '← Все шаблоны',
        value: (n) => `Значение {{${n}}}`,
        preview: 'Клиент прочитает',
        buttons: 'Кнопки',
        fillAll: 'Чтобы отправить, заполните все значения.',
        send: 'Отправить шаблон',
        notSent: 'Не отправлено.',
        windowClosed: (hours) =>
          `Клиент не писал ${plural('ru', hours, { one: 'последний # час', few: 'последние # часа', many: 'последние # часов', other: 'последние # часа' })}: сейчас до него дойдёт только сообщение по шаблону.`,
        windowClosedUntilTheyWrite: (hours) =>
          `Клиент не писал ${plural('ru', hours, { one: 'последний # час', few: 'последние # часа', many: 'последние # часов', other: 'последние # часа' })}: сообщение дойдёт до него, только когда он напишет снова.`,
        categories: { MARKETING: 'Маркетинг', UTILITY: 'Сервисный', AUTHENTICATION: 'Аутентификация' },
      },
    },
    es: {
      keyboard: {
        inline: 'Botones bajo el mensaje',
        reply: 'Botones de respuesta que ve el cliente',
        replyCaption: 'Botones de respuesta:',
        opens: (url) => `Abre ${url}`,
      },
      templates: {
        open: 'Plantilla',
        openLabel: 'Enviar un mensaje de plantilla',
        title: 'Plantillas',
        close: 'Cerrar las plantillas',
        list: 'Plantillas aprobadas',
        loading: 'Cargando plantillas…',
        loadFailed: 'No se pudieron cargar las plantillas.',
        tryAgain: 'Reintentar',
        none: 'Este canal aún no tiene plantillas aprobadas.',
        back: '← Todas las plantillas',
        value: (n) => `Valor {{${n}}}`,
        preview: 'El cliente leerá',
        buttons: 'Botones',
        fillAll: 'Complete todos los valores para enviar.',
        send: 'Enviar plantilla',
        notSent: 'No enviado.',
        windowClosed: (hours) =>
          `El cliente no ha escrito ${plural('es', hours, { one: 'en la última hora', other: 'en las últimas # horas' })}: ahora solo le llega una plantilla.`,
        windowClosedUntilTheyWrite: (hours) =>
          `El cliente no ha escrito ${plural('es', hours, { one: 'en la última hora', other: 'en las últimas # horas' })}: un mensaje le llegará solo cuando vuelva a escribir.`,
        categories: { MARKETING: 'Marketing', UTILITY: 'Servicio', AUTHENTICATION: 'Autenticación' },
      },
    },
    pt: {
      keyboard: {
        inline: 'Botões abaixo da mensagem',
        reply: 'Botões de resposta mostrados ao cliente',
        replyCaption: 'Botões de resposta:',
        opens: (url) => `Abre ${url}`,
      },
      templates: {
        open: 'Modelo',
        openLabel: 'Enviar uma mensagem de modelo',
        title: 'Modelos',
        close: 'Fechar os modelos',
        list: 'Modelos aprovados',
        loading: 'Carregando modelos…',
        loadFailed: 'Não foi possível carregar os modelos.',
        tryAgain: 'Tentar de novo',
        none: 'Este canal ainda não tem modelos aprovados.',
        back: '← Todos os modelos',
        value: (n) => `Valor {{${n}}}`,
        preview: 'O cliente lerá',
        buttons: 'Botões',
        fillAll: 'Preencha todos os valores para enviar.',
        send: 'Enviar modelo',
        notSent: 'Não enviado.',
        windowClosed: (hours) =>
          `O cliente não escreveu ${plural('pt', hours, { one: 'na última hora', other: 'nas últimas # horas' })}: agora só um modelo chega até ele.`,
        windowClosedUntilTheyWrite: (hours) =>
          `O cliente não escreveu ${plural('pt', hours, { one: 'na última hora', other: 'nas últimas # horas' })}: uma mensagem só chega até ele quando ele escrever de novo.`,
        categories: { MARKETING: 'Marketing', UTILITY: 'Utilidade', AUTHENTICATION: 'Autenticação' },
      },
    },
  },
);
