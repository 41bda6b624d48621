import { useEffect, useRef } from 'react';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useUnanswered } from '../api/get-unanswered.ts';

/** The host's badge: the server's total of unanswered messages, said when the frame opens and whenever it changes. */
export function useUnansweredBadge(): void {
  const { bridge } = useEmbed();
  const total = useUnanswered().data?.total;
  const said = useRef<number | null>(null);
  useEffect(() => {
    if (total === undefined || total === said.current) return;
    said.current = total;
    bridge?.post({ type: 'unanswered_count_changed', payload: { total } });
  }, [bridge, total]);
}
