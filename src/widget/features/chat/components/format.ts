import type { BffChat, MessagePreview } from '../../../../contract/bff-chats.ts';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const dayWithYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** A list row's time: the hour today, else the day (with the year when it is not this one). */
export function shortWhen(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (sameDay(d, now)) return time.format(d);
  return (d.getFullYear() === now.getFullYear() ? day : dayWithYear).format(d);
}

/** A message's time: the hour, with the day when it is not today. */
export function messageWhen(iso: string, now = new Date()): string {
  const d = new Date(iso);
  return sameDay(d, now) ? time.format(d) : `${shortWhen(iso, now)}, ${time.format(d)}`;
}

export const fullWhen = (iso: string): string => full.format(new Date(iso));

/** What the list and headers call a chat. */
export function chatTitle(chat: Pick<BffChat, 'name' | 'username' | 'phone' | 'chat_id'>): string {
  return chat.name ?? (chat.username ? `@${chat.username}` : null) ?? (chat.phone ? `+${chat.phone}` : null) ?? chat.chat_id ?? 'Unknown contact';
}

export function previewText(m: MessagePreview): string {
  const body = m.kind === 'attachment' ? `📎 ${m.attachment_name ?? 'Attachment'}` : (m.text ?? (m.kind === 'template' ? 'Template' : ''));
  return m.direction === 'outbound' ? `You: ${body}` : body;
}

export const transportNames: Record<string, string> = {
  telegram: 'Telegram bot',
  tgapi: 'Telegram',
  wapi: 'WhatsApp Business',
  whatsapp: 'WhatsApp',
  instAPI: 'Instagram',
  viber: 'Viber',
  avito: 'Avito',
  max: 'MAX',
  maxbot: 'MAX bot',
  vk: 'VK',
};
