import { useLang } from '@/lib/i18n.ts';
import { transportName } from './format.ts';

/** Each messenger's colour (dark enough for white letters) and the letters that stand for it. */
const marks: Record<string, { colour: string; letters: string }> = {
  telegram: { colour: '#1b6fa8', letters: 'TG' },
  tgapi: { colour: '#1b6fa8', letters: 'TG' },
  whatsapp: { colour: '#0b7a3e', letters: 'WA' },
  wapi: { colour: '#0b7a3e', letters: 'WA' },
  max: { colour: '#5b3fd1', letters: 'MX' },
  maxbot: { colour: '#5b3fd1', letters: 'MX' },
  instAPI: { colour: '#b3246b', letters: 'IG' },
  vk: { colour: '#2a5f9e', letters: 'VK' },
  avito: { colour: '#006e8f', letters: 'AV' },
  viber: { colour: '#6a3fb5', letters: 'VB' },
};

/**
 * Which messenger a chat goes through, as a small coloured mark and its name, with the channel's own name when it
 * has one, so an agent sees at a glance where the customer wrote from and which of the account's numbers or bots
 * answers; `compact` keeps the words for screen readers alone.
 */
export function MessengerMark({ transport, channel, compact = false }: { transport: string; channel?: string | null | undefined; compact?: boolean }) {
  const lang = useLang();
  const mark = marks[transport] ?? { colour: '#4f5b68', letters: transport.slice(0, 2).toUpperCase() };
  const said = [transportName(transport, lang), channel].filter(Boolean).join(' · ');
  return (
    <span className="inline-flex min-w-0 items-center gap-1 text-xs text-muted" title={compact ? said : undefined}>
      <span className="inline-grid size-4 flex-none place-items-center rounded-sm text-[8px] leading-none font-bold text-white" style={{ background: mark.colour }} aria-hidden="true">
        {mark.letters}
      </span>
      <span className={compact ? 'sr-only' : 'truncate'}>{said}</span>
    </span>
  );
}
