import type { FailureReason } from '../../../contract/messages.ts';
import { catalog } from '@/lib/i18n.ts';
import { en, type ChatWords } from './words-en.ts';
import { es } from './words-es.ts';
import { pt } from './words-pt.ts';
import { ru } from './words-ru.ts';

export type { ChatWords };

/** Everything the chat screen says, by language (each in its own file, `words-<lang>.ts`). */
export const words = catalog(en, { ru, es, pt });

/** Why a message was not delivered, in words: the gateway's code where the language has none for it. */
export const reasonText = (w: ChatWords, reason: string): string => w.message.reasons[reason as FailureReason] ?? reason.replaceAll('_', ' ');
