import { catalog, plural } from '@/lib/i18n.ts';
import type { ButtonType, Intent, Measure, Problem } from './store/keyboard-draft.ts';

const protocolList = (protocols: readonly string[], or: string) => {
  const shown = protocols.map((p) => `${p}//`);
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} ${or} ${shown.at(-1)}` : (shown[0] ?? '');
};

/** What the keyboard builder, the buttons waiting in the composer and the gateway's changes to them say. */
export const keyboardWords = catalog(
  {
    title: 'Buttons for the message',
    close: 'Close',
    cancel: 'Cancel',
    attach: 'Attach the buttons',
    markup: 'Where the buttons show',
    markups: { inline: 'Under the message', reply: 'In place of the customer’s keyboard' },
    options: { oneTime: 'Hide after a press', fitted: 'Fit the keyboard to the buttons', selective: 'Only for the people mentioned' },
    count: (count: number, max: number | null) => (max === null ? plural('en', count, { one: '# button', other: '# buttons' }) : `${count}/${max} buttons`),
    full: (max: number) => `A message takes at most ${max} buttons.`,
    empty: 'Add at least one button.',
    toFix: (n: number) => plural('en', n, { one: 'Fix # field to attach the buttons.', other: 'Fix # fields to attach the buttons.' }),
    ready: 'Ready to attach.',
    row: (n: number) => `Row ${n}`,
    button: (n: number) => `Button ${n}`,
    buttonOfRow: (row: number, n: number) => `Button ${n} of row ${row}`,
    remove: 'Remove',
    removeLabel: (name: string) => `Remove ${name.toLowerCase()}`,
    addButton: 'Add a button',
    addToRow: (row: number) => `Add a button to row ${row}`,
    addRow: 'Add a row',
    text: 'Text',
    type: 'What it does',
    types: { callback: 'Sends a callback', link: 'Opens a link', message: 'Sends its words' } satisfies Record<ButtonType, string>,
    payload: 'Payload',
    callbackData: 'Callback data',
    url: 'Link',
    intent: 'Colour',
    intents: { default: 'Default', positive: 'Positive', negative: 'Negative' } satisfies Record<Intent, string>,
    counter: (m: Measure) => (m.unit === 'bytes' ? `${m.count}/${m.max} bytes` : `${m.count}/${m.max}`),
    problem: (p: Problem) =>
      p.code === 'required'
        ? 'Required.'
        : p.code === 'tooLong'
          ? p.unit === 'bytes'
            ? `At most ${p.max} bytes: a Latin letter takes 1, a Cyrillic one 2, an emoji 4.`
            : `At most ${p.max} characters.`
          : `A link starting with ${protocolList(p.protocols, 'or')}`,
    attached: 'Buttons to send with the message',
    edit: 'Edit',
    editLabel: 'Edit the buttons',
    removeAll: 'Remove',
    removeAllLabel: 'Remove the buttons',
    stale: 'This channel does not take these buttons: edit or remove them.',
    changed: 'Sent, but the gateway changed the buttons:',
    dismiss: 'Dismiss',
  },
  {
    ru: {
      title: 'Кнопки к сообщению',
      close: 'Закрыть',
      cancel: 'Отмена',
      attach: 'Прикрепить кнопки',
      markup: 'Где показать кнопки',
      markups: { inline: 'Под сообщением', reply: 'Вместо клавиатуры клиента' },
      options: { oneTime: 'Скрыть после нажатия', fitted: 'Подогнать клавиатуру под кнопки', selective: 'Только для упомянутых' },
      count: (count, max) => (max === null ? plural('ru', count, { one: '# кнопка', few: '# кнопки', many: '# кнопок', other: '# кнопки' }) : `${count}/${max} кнопок`),
      full: (max) => `В сообщении не больше ${max} кнопок.`,
      empty: 'Добавьте хотя бы одну кнопку.',
      toFix: (n) =>
        plural('ru', n, {
          one: 'Исправьте # поле, чтобы прикрепить кнопки.',
          few: 'Исправьте # поля, чтобы прикрепить кнопки.',
          many: 'Исправьте # полей, чтобы прикрепить кнопки.',
          other: 'Исправьте # поля, чтобы прикрепить кнопки.',
        }),
      ready: 'Можно прикрепить.',
      row: (n) => `Ряд ${n}`,
      button: (n) => `Кнопка ${n}`,
      buttonOfRow: (row, n) => `Кнопка ${n} ряда ${row}`,
      remove: 'Убрать',
      removeLabel: (name) => `Убрать: ${name.toLowerCase()}`,
      addButton: 'Добавить кнопку',
      addToRow: (row) => `Добавить кнопку в ряд ${row}`,
      addRow: 'Добавить ряд',
      text: 'Текст',
      type: 'Что делает',
      types: { callback: 'Отправляет callback', link: 'Открывает ссылку', message: 'Отправляет свой текст' },
      payload: 'Payload',
      callbackData: 'Callback data',
      url: 'Ссылка',
      intent: 'Цвет',
      intents: { default: 'Обычный', positive: 'Положительный', negative: 'Отрицательный' },
      counter: (m) => (m.unit === 'bytes' ? `${m.count}/${m.max} байт` : `${m.count}/${m.max}`),
      problem: (p) =>
        p.code === 'required'
          ? 'Обязательное поле.'
          : p.code === 'tooLong'
            ? p.unit === 'bytes'
              ? `Не больше ${p.max} байт: латинская буква — 1 байт, кириллическая — 2, эмодзи — 4.`
              : `Не больше ${p.max} символов.`
            : `Ссылка, начинающаяся с ${protocolList(p.protocols, 'или')}`,
      attached: 'Кнопки к отправке',
      edit: 'Изменить',
      editLabel: 'Изменить кнопки',
      removeAll: 'Убрать',
      removeAllLabel: 'Убрать кнопки',
      stale: 'Этот канал не принимает такие кнопки: измените или уберите их.',
      changed: 'Отправлено, но шлюз изменил кнопки:',
      dismiss: 'Скрыть',
    },
    es: {
      title: 'Botones del mensaje',
      close: 'Cerrar',
      cancel: 'Cancelar',
      attach: 'Adjuntar los botones',
      markup: 'Dónde se muestran los botones',
      markups: { inline: 'Bajo el mensaje', reply: 'En lugar del teclado del cliente' },
      options: { oneTime: 'Ocultar tras pulsar', fitted: 'Ajustar el teclado a los botones', selective: 'Solo para las personas mencionadas' },
      count: (count, max) => (max === null ? plural('es', count, { one: '# botón', other: '# botones' }) : `${count}/${max} botones`),
      full: (max) => `Un mensaje admite como máximo ${max} botones.`,
      empty: 'Añada al menos un botón.',
      toFix: (n) => plural('es', n, { one: 'Corrija # campo para adjuntar los botones.', other: 'Corrija # campos para adjuntar los botones.' }),
      ready: 'Listo para adjuntar.',
      row: (n) => `Fila ${n}`,
      button: (n) => `Botón ${n}`,
      buttonOfRow: (row, n) => `Botón ${n} de la fila ${row}`,
      remove: 'Quitar',
      removeLabel: (name) => `Quitar ${name.toLowerCase()}`,
      addButton: 'Añadir un botón',
      addToRow: (row) => `Añadir un botón a la fila ${row}`,
      addRow: 'Añadir una fila',
      text: 'Texto',
      type: 'Qué hace',
      types: { callback: 'Envía un callback', link: 'Abre un enlace', message: 'Envía su texto' },
      payload: 'Payload',
      callbackData: 'Callback data',
      url: 'Enlace',
      intent: 'Color',
      intents: { default: 'Predeterminado', positive: 'Positivo', negative: 'Negativo' },
      counter: (m) => (m.unit === 'bytes' ? `${m.count}/${m.max} bytes` : `${m.count}/${m.max}`),
      problem: (p) =>
        p.code === 'required'
          ? 'Obligatorio.'
          : p.code === 'tooLong'
            ? p.unit === 'bytes'
              ? `Como máximo ${p.max} bytes: una letra latina ocupa 1, una cirílica 2, un emoji 4.`
              : `Como máximo ${p.max} caracteres.`
            : `Un enlace que empiece por ${protocolList(p.protocols, 'o')}`,
      attached: 'Botones que se enviarán con el mensaje',
      edit: 'Editar',
      editLabel: 'Editar los botones',
      removeAll: 'Quitar',
      removeAllLabel: 'Quitar los botones',
      stale: 'Este canal no admite estos botones: edítelos o quítelos.',
      changed: 'Enviado, pero la pasarela cambió los botones:',
      dismiss: 'Cerrar',
    },
    pt: {
      title: 'Botões da mensagem',
      close: 'Fechar',
      cancel: 'Cancelar',
      attach: 'Anexar os botões',
      markup: 'Onde os botões aparecem',
      markups: { inline: 'Abaixo da mensagem', reply: 'No lugar do teclado do cliente' },
      options: { oneTime: 'Ocultar após tocar', fitted: 'Ajustar o teclado aos botões', selective: 'Só para as pessoas mencionadas' },
      count: (count, max) => (max === null ? plural('pt', count, { one: '# botão', other: '# botões' }) : `${count}/${max} botões`),
      full: (max) => `Uma mensagem aceita no máximo ${max} botões.`,
      empty: 'Adicione pelo menos um botão.',
      toFix: (n) => plural('pt', n, { one: 'Corrija # campo para anexar os botões.', other: 'Corrija # campos para anexar os botões.' }),
      ready: 'Pronto para anexar.',
      row: (n) => `Linha ${n}`,
      button: (n) => `Botão ${n}`,
      buttonOfRow: (row, n) => `Botão ${n} da linha ${row}`,
      remove: 'Remover',
      removeLabel: (name) => `Remover ${name.toLowerCase()}`,
      addButton: 'Adicionar um botão',
      addToRow: (row) => `Adicionar um botão à linha ${row}`,
      addRow: 'Adicionar uma linha',
      text: 'Texto',
      type: 'O que faz',
      types: { callback: 'Envia um callback', link: 'Abre um link', message: 'Envia seu texto' },
      payload: 'Payload',
      callbackData: 'Callback data',
      url: 'Link',
      intent: 'Cor',
      intents: { default: 'Padrão', positive: 'Positivo', negative: 'Negativo' },
      counter: (m) => (m.unit === 'bytes' ? `${m.count}/${m.max} bytes` : `${m.count}/${m.max}`),
      problem: (p) =>
        p.code === 'required'
          ? 'Obrigatório.'
          : p.code === 'tooLong'
            ? p.unit === 'bytes'
              ? `No máximo ${p.max} bytes: uma letra latina ocupa 1, uma cirílica 2, um emoji 4.`
              : `No máximo ${p.max} caracteres.`
            : `Um link começando com ${protocolList(p.protocols, 'ou')}`,
      attached: 'Botões a enviar com a mensagem',
      edit: 'Editar',
      editLabel: 'Editar os botões',
      removeAll: 'Remover',
      removeAllLabel: 'Remover os botões',
      stale: 'Este canal não aceita estes botões: edite-os ou remova-os.',
      changed: 'Enviada, mas o gateway alterou os botões:',
      dismiss: 'Fechar',
    },
  },
);
