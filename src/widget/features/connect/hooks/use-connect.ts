import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ApiTransport } from '../../../../contract/channel-api.ts';
import type { Transport } from '../../../../contract/channels.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { BffError } from '../../../lib/bff-client.ts';
import { createChannel, deleteChannel, getChannel, getQr, reinitChannel, requestPairingCode, submitTwoFactor } from '../api/channels.ts';
import type { ConnectContext } from '../context.ts';
import { initialPanel, panelReducer } from '../store/panel.ts';
import { refusalOf } from '../../../lib/refusal.ts';
import { useCurrentLang } from '../../../lib/i18n.ts';
import { reconnectPlan, reconnectsWithCredentials, wantsQr } from '../store/step.ts';
import type { Channels } from './use-channels.ts';

/**
 * The connect side of the screen: the panel (a form, or one channel followed through its steps) and the calls
 * that move a channel on. Refusals of calls made from a form are thrown to that form, which shows them by its
 * inputs; those of calls made from a button land in the panel.
 */
export function useConnect(ctx: ConnectContext, channels: Channels) {
  const { client, session } = ctx;
  const [panel, dispatch] = useReducer(panelReducer, session.transport, initialPanel);
  const lang = useCurrentLang();
  /** Why the panel starts where it does, when it is not where the link asked: the screen says it in words. */
  const [notice, setNotice] = useState<'missing' | null>(null);
  useEffect(() => ctx.onEvent((event) => dispatch({ type: 'event', event })), [ctx]);

  const list = channels.state.channels;
  const followed = panel.kind === 'follow' ? list.find((c) => c.channel_id === panel.channelId) : undefined;

  // Reads the code a channel shows now when the stream has not brought one (the frame opened late, or reinit).
  const qrWanted = wantsQr(followed, panel) ? panel : null;
  const qrKey = qrWanted ? `${qrWanted.channelId}:${qrWanted.qrVersion}` : null;
  useEffect(() => {
    if (!qrWanted) return;
    const { channelId, qrVersion: version } = qrWanted;
    getQr(client, channelId).then(
      (qr) => dispatch({ type: 'qrRead', channelId, version, code: qr.qr_code }),
      (err: unknown) =>
        err instanceof BffError && err.code === 'CHANNEL_QR_EXPIRED'
          ? dispatch({ type: 'qrRead', channelId, version, code: null })
          : dispatch({ type: 'failed', channelId, error: refusalOf(err, {}, lang()).message }),
    );
    // Keyed by the code wanted, not the panel object (which changes with every event): one read per code.
  }, [client, qrKey, lang]);

  /** Reads one channel into the list, keeping whatever the stream says meanwhile. */
  const refresh = useCallback(
    async (channelId: string) => {
      const since = channels.version();
      const channel = await getChannel(client, channelId).catch(() => undefined);
      if (channel) channels.upsert(channel, since);
    },
    [client, channels],
  );

  // The admin comes back from the platform's page in another tab: the channel's link may have moved on meanwhile (VK
  // gives each step taken a link of its own, and the one used before is refused), so the channel is read again.
  const atPlatform = followed?.status === 'init' && followed.url ? followed.channel_id : null;
  useEffect(() => {
    if (!atPlatform) return;
    const back = () => {
      if (document.visibilityState === 'visible') void refresh(atPlatform);
    };
    document.addEventListener('visibilitychange', back);
    window.addEventListener('focus', back);
    return () => {
      document.removeEventListener('visibilitychange', back);
      window.removeEventListener('focus', back);
    };
  }, [atPlatform, refresh]);

  const create = useCallback(
    async (transport: Transport, credentials: Record<string, string>) => {
      setNotice(null);
      const created = await createChannel(client, transport, credentials);
      await refresh(created.channel_id);
      dispatch({ type: 'follow', channelId: created.channel_id, transport, url: created.url ?? null });
    },
    [client, refresh],
  );

  /** Reinit with the credentials given (none for QR and wapi channels); the new code follows. */
  const reinit = useCallback(
    async (channelId: string, transport: Transport, credentials: Record<string, string> = {}) => {
      const since = channels.version();
      dispatch({ type: 'follow', channelId, transport });
      dispatch({ type: 'restarting', channelId });
      try {
        const channel = await reinitChannel(client, channelId, credentials);
        if (channel) channels.upsert(channel, since);
        dispatch({ type: 'restarted', channelId });
      } catch (err) {
        dispatch({ type: 'failed', channelId, error: refusalOf(err, {}, lang()).message });
      }
    },
    [client, channels, lang],
  );

  /** A bot's reconnect form: its refusal is thrown back to the form. */
  const reinitWith = useCallback(
    async (channelId: string, transport: Transport, credentials: Record<string, string>) => {
      const since = channels.version();
      const channel = await reinitChannel(client, channelId, credentials);
      if (channel) channels.upsert(channel, since);
      dispatch({ type: 'follow', channelId, transport });
    },
    [client, channels],
  );

  const reconnect = useCallback(
    (channel: BffChannel) => {
      setNotice(null);
      if (reconnectsWithCredentials(channel)) dispatch({ type: 'reconnect', channelId: channel.channel_id, transport: channel.transport });
      else void reinit(channel.channel_id, channel.transport);
    },
    [reinit],
  );

  const follow = useCallback((channel: BffChannel) => {
    setNotice(null);
    dispatch({ type: 'follow', channelId: channel.channel_id, transport: channel.transport });
  }, []);

  const pairing = useCallback(
    async (channelId: string, phone: string) => {
      const code = await requestPairingCode(client, channelId, phone);
      dispatch({ type: 'pairing', channelId, code: code.pairing_code, phone: code.pairing_phone });
    },
    [client],
  );

  const twoFactor = useCallback(
    async (channelId: string, transport: ApiTransport, password: string) => {
      await submitTwoFactor(client, channelId, transport, password);
      // The stream brings `active` as well; reading it now does not depend on the socket being up.
      await refresh(channelId);
    },
    [client, refresh],
  );

  const remove = useCallback(
    async (channelId: string, deleteChats: boolean) => {
      await deleteChannel(client, channelId, deleteChats);
      channels.removed(channelId);
    },
    [client, channels],
  );

  const startNew = useCallback((transport: Transport | null = null) => {
    setNotice(null);
    dispatch({ type: 'new', transport });
  }, []);

  // A frame opened for one channel starts at its reconnect, once the list says where that channel is.
  const planned = useRef(false);
  useEffect(() => {
    if (planned.current || !session.channel_id || channels.state.phase !== 'ready') return;
    planned.current = true;
    const channel = channels.state.channels.find((c) => c.channel_id === session.channel_id);
    const plan = reconnectPlan(channel);
    if (plan === 'missing') setNotice('missing');
    else if (plan === 'reinit') void reinit(channel!.channel_id, channel!.transport);
    else if (plan === 'credentials') dispatch({ type: 'reconnect', channelId: channel!.channel_id, transport: channel!.transport });
    else dispatch({ type: 'follow', channelId: channel!.channel_id, transport: channel!.transport });
  }, [session.channel_id, channels.state, reinit]);

  return { panel, followed, notice, create, reinit, reinitWith, reconnect, follow, pairing, twoFactor, remove, startNew };
}

export type Connect = ReturnType<typeof useConnect>;
