import type { FailureReason } from '../../../contract/messages.ts';
import { catalog } from '@/lib/i18n.ts';
import { en, type ViewWords } from './view-words-en.ts';
import { es } from './view-words-es.ts';
import { pt } from './view-words-pt.ts';
import { ru } from './view-words-ru.ts';

export type { ViewWords };

/** What the open chat says, by language (each in its own file): a part of the open chat's code, loaded with it. */
export const viewWords = catalog(en, { ru, es, pt });

/** Why a message was not delivered, in words: the gateway's code where the language has none for it. */
export const reasonText = (w: ViewWords, reason: string): string => w.message.reasons[reason as FailureReason] ?? reason.replaceAll('_', ' ');
