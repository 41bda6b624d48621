import { catalog } from '@/lib/i18n.ts';

/**
 * The composer's way into the keyboard builder: the only words of it the frame loads up front (the builder's own,
 * in keyboard-words.ts, come with the builder).
 */
export const keyboardOpenWords = catalog({ open: 'Buttons', openLabel: 'Add buttons to the message' }, {
  ru: { open: 'Кнопки', openLabel: 'Добавить кнопки к сообщению' },
  es: { open: 'Botones', openLabel: 'Añadir botones al mensaje' },
  pt: { open: 'Botões', openLabel: 'Adicionar botões à mensagem' },
});
