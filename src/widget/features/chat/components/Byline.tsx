import { createContext, useContext } from 'react';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useLang, useWords } from '@/lib/i18n.ts';
import { bylineWords } from '../byline-words.ts';
import type { ChatMessage } from '../store/message.ts';
import { fullWhen } from './format.ts';

/** Whom the open chat is with, as its header names them: who wrote the inbound messages. */
export const ChatContactName = createContext<string | null>(null);

/**
 * What a screen reader hears first of a message: who wrote it and when ("Anna Petrova, 29 Nov 2026, 05:30:", "You,
 * …", "Boris (agent), …"). The eye sees the same on the bubble (its side, the author's name, the time); this says
 * it in words.
 */
export function Byline({ message: m }: { message: Pick<ChatMessage, 'direction' | 'author' | 'created_at'> }) {
  const lang = useLang();
  const w = useWords(bylineWords);
  const contact = useContext(ChatContactName);
  const me = useEmbed().session.user?.id;
  // This agent's own messages (and those this frame sent, not named yet) are "You"; a colleague's by name.
  const mine = !m.author || m.author.crm_user_id === me;
  const who = m.direction === 'outbound' ? (mine || !m.author?.name ? w.you : w.agent(m.author.name)) : (contact ?? w.contact);
  return <span className="sr-only">{w.line(who, fullWhen(m.created_at, lang))}</span>;
}
