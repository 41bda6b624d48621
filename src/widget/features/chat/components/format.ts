import type { BffChat, MessagePreview } from '../../../../contract/bff-chats.ts';
import type { Lang } from '@/lib/i18n.ts';
import { words } from '../words.ts';

type DateFormat = 'time' | 'day' | 'dayWithYear' | 'full' | 'separator';

const formatOptions: Record<DateFormat, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit' },
  day: { day: 'numeric', month: 'short' },
  dayWithYear: { day: 'numeric', month: 'short', year: 'numeric' },
  full: { dateStyle: 'medium', timeStyle: 'short' },
  /** Between the days of a chat's history. */
  separator: { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The locale dates are written in: the browser's own variant of the frame's language when it has one (en-GB keeps
 * its day before the month and its 24-hour clock), else the language itself.
 */
export function dateLocale(lang: Lang, preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): string {
  return preferred.find((tag) => tag.split('-')[0]!.toLowerCase() === lang) ?? lang;
}

/**
 * Each formatter is built once per language, when first used or made ready (prepareDateFormats): a formatter is
 * costly to make, the list formats every row, and the first rows (today's chats) need only the hour.
 */
function formatOf(lang: Lang, kind: DateFormat): Intl.DateTimeFormat {
  const key = `${lang} ${kind}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(dateLocale(lang), formatOptions[kind]);
    formats.set(key, f);
  }
  return f;
}

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** A list row's time: the hour today, else the day (with the year when it is not this one). */
export function shortWhen(iso: string, lang: Lang, now = new Date()): string {
  const d = new Date(iso);
  if (sameDay(d, now)) return formatOf(lang, 'time').format(d);
  return formatOf(lang, d.getFullYear() === now.getFullYear() ? 'day' : 'dayWithYear').format(d);
}

/** A message's time: the hour, with the day when it is not today. */
export function messageWhen(iso: string, lang: Lang, now = new Date()): string {
  const d = new Date(iso);
  const time = formatOf(lang, 'time');
  return sameDay(d, now) ? time.format(d) : `${shortWhen(iso, lang, now)}, ${time.format(d)}`;
}

export const fullWhen = (iso: string, lang: Lang): string => formatOf(lang, 'full').format(new Date(iso));

/** What the list and headers call a chat. */
export function chatTitle(chat: Pick<BffChat, 'name' | 'username' | 'phone' | 'chat_id'>, lang: Lang): string {
  return chat.name ?? (chat.username ? `@${chat.username}` : null) ?? (chat.phone ? `+${chat.phone}` : null) ?? chat.chat_id ?? words[lang].chat.unknownContact;
}

/** A chat's last message in its row: who sent it (the agent's side is named), whether it is a file, and its words. */
export function previewParts(m: MessagePreview, lang: Lang): { by: string; file: boolean; text: string } {
  const w = words[lang].chat;
  const file = m.kind === 'attachment';
  const text = file ? (m.attachment_name ?? w.attachment) : (m.text ?? (m.kind === 'template' ? w.template : ''));
  return { by: m.direction === 'outbound' ? w.you : '', file, text };
}

/** What a transport (or a chat type) is called, when there is no channel name to show. */
export const transportName = (transport: string, lang: Lang): string => words[lang].chat.transports[transport] ?? transport;

/** The calendar day a message belongs to, in the browser's time zone (for separators between days). */
export const dayOf = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

/** A separator's words: today, yesterday, or the date (with the year when it is not this one). */
export function dayLabel(iso: string, lang: Lang, now = new Date()): string {
  const d = new Date(iso);
  if (sameDay(d, now)) return words[lang].days.today;
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(d, yesterday)) return words[lang].days.yesterday;
  return formatOf(lang, 'separator').format(d);
}

/**
 * Makes what an opened chat's messages are written with (their times, the full dates of their titles, the days
 * between them) while the frame has nothing else to do: made by the first open, they would hold up its drawing.
 */
export function prepareDateFormats(lang: Lang): void {
  formatOf(lang, 'time');
  formatOf(lang, 'day');
  formatOf(lang, 'full');
  formatOf(lang, 'separator');
}
