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
  },
);
