import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { BffChannel } from '../../../../contract/session.ts';
import type { ConnectContext } from '../context.ts';
import { channelsReducer, initialChannels } from '../store/channels.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { useCurrentLang } from '../../../lib/i18n.ts';

/** How long events about channels the list cannot place are gathered before it is read again. */
const REREAD_AFTER_MS = 300;

/** The account's channels: read once, kept current by the stream, read again when the stream says so. */
export function useChannels(ctx: Pick<ConnectContext, 'client' | 'onEvent' | 'onResync'>) {
  const { client } = ctx;
  const lang = useCurrentLang();
  const [state, dispatch] = useReducer(channelsReducer, undefined, initialChannels);
  const [reads, setReads] = useState(0);
  const current = useRef(state);
  current.current = state;

  useEffect(() => ctx.onEvent((event) => dispatch({ type: 'event', event })), [ctx]);
  useEffect(() => ctx.onResync(() => setReads((n) => n + 1)), [ctx]);

  useEffect(() => {
    let wanted = true;
    const since = current.current.version;
    client.channels().then(
      (channels) => wanted && dispatch({ type: 'loaded', channels, since }),
      (err: unknown) => wanted && dispatch({ type: 'failed', error: refusalOf(err, {}, lang()).message }),
    );
    return () => {
      wanted = false;
    };
  }, [client, reads, lang]);

  // Throttled, not debounced: a steady stream of new channels must still lead to a read now and then.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { stale, phase } = state;
  useEffect(() => {
    if (stale === 0 || phase !== 'ready' || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setReads((n) => n + 1);
    }, REREAD_AFTER_MS);
  }, [stale, phase]);
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);

  /** A channel the gateway answered with; `since` is the list's version when the call began. */
  const upsert = useCallback((channel: BffChannel, since: number) => dispatch({ type: 'upsert', channel, since }), []);
  const removed = useCallback((channelId: string) => dispatch({ type: 'removed', channelId }), []);
  const version = useCallback(() => current.current.version, []);
  const retry = useCallback(() => setReads((n) => n + 1), []);

  return { state, upsert, removed, version, retry };
}

export type Channels = ReturnType<typeof useChannels>;
