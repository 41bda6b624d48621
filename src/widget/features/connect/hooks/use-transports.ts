import { useEffect, useState } from 'react';
import type { BffTransport } from '../../../../contract/session.ts';
import type { ConnectContext } from '../context.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { useCurrentLang } from '../../../lib/i18n.ts';

export type Transports = { phase: 'loading' } | { phase: 'ready'; creatable: BffTransport[] } | { phase: 'failed'; error: string };

/** The transports this frame can connect (the others connect through a flow of their own). */
export function useTransports(ctx: Pick<ConnectContext, 'client'>): Transports & { retry(): void } {
  const [state, setState] = useState<Transports>({ phase: 'loading' });
  const [reads, setReads] = useState(0);
  const lang = useCurrentLang();
  useEffect(() => {
    let wanted = true;
    ctx.client.transports().then(
      (all) => wanted && setState({ phase: 'ready', creatable: all.filter((t) => t.creatable) }),
      (err: unknown) => wanted && setState({ phase: 'failed', error: refusalOf(err, {}, lang()).message }),
    );
    return () => {
      wanted = false;
    };
  }, [ctx.client, reads, lang]);
  return { ...state, retry: () => setReads((n) => n + 1) };
}
