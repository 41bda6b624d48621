import { catalog } from '@/lib/i18n.ts';

/** Who wrote a message and when, as a screen reader says it before the message. */
export const bylineWords = catalog(
  {
    line: (who: string, when: string) => `${who}, ${when}:`,
    you: 'You',
    agent: (name: string) => `${name} (agent)`,
    contact: 'Contact',
  },
  {
    ru: {
      line: (who, when) => `${who}, ${when}:`,
      you: 'Вы',
      agent: (name) => `${name} (сотрудник)`,
      contact: 'Контакт',
    },
    es: {
      line: (who, when) => `${who}, ${when}:`,
      you: 'Usted',
      agent: (name) => `${name} (agente)`,
      contact: 'Contacto',
    },
    pt: {
      line: (who, when) => `${who}, ${when}:`,
      you: 'Você',
      agent: (name) => `${name} (atendente)`,
      contact: 'Contato',
    },
  },
);
