import { catalog } from '@/lib/i18n.ts';
import { en, type ChatWords } from './words-en.ts';
import { es } from './words-es.ts';
import { pt } from './words-pt.ts';
import { ru } from './words-ru.ts';

export type { ChatWords };

/**
 * What the chat screen's first view says, by language (each in its own file, `words-<lang>.ts`): the list and its
 * rows. The open chat's words are `viewWords`, in the open chat's own chunk.
 */
export const words = catalog(en, { ru, es, pt });
