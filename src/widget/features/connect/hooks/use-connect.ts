import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { ApiTransport } from '../../../../contract/channel-api.ts';
import type { Transport } from '../../../../contract/channels.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { useLang } from '@/lib/i18n.ts';
import { refusalOf } from '@/lib/refusal.ts';
import { useCreateChannel } from '../api/create-channel.ts';
import { useDeleteChannel } from '../api/delete-channel.ts';
import { channelKeys, getChannel, useChannelList, withChannel } from '../api/get-channels.ts';
import { useQr } from '../api/get-qr.ts';
import { usePairingCode } from '../api/pairing-code.ts';
import { useReinitChannel } from '../api/reinit-channel.ts';
import { useTwoFactor } from '../api/two-factor.ts';
import { useConnectUi } from '../store/panel.ts';
import { connectStep, qrView, reconnectPlan, reconnectsWithCredentials, wantsQr } from '../store/step.ts';

/**
 * The connect side of the screen: the panel (a form, or one channel followed through its steps) and the calls
 * that move a channel on. Refusals of calls made from a form are thrown to that form, which shows them by its
 * inputs; those of calls made from a button land in the panel.
 */
export function useConnect() {
  const { session, client } = useEmbed();
  const lang = useLang();
  const channels = useChannelList();
  const panel = useConnectUi((s) => s.panel);
  const ui = useConnectUi.getState;
  const deleted = useConnectUi((s) => s.deleted);
  const followedId = panel.kind === 'follow' ? panel.channelId : '';
  const followed = channels.data?.find((c) => c.channel_id === followedId);

  const reinitCall = useReinitChannel();
  const createCall = useCreateChannel();
  const removeCall = useDeleteChannel();
  const pairingCall = usePairingCode(followedId);
  const twoFactorCall = useTwoFactor(followedId, (panel.kind === 'follow' ? panel.transport : 'whatsapp') as ApiTransport);
  const restarting = reinitCall.isPending && reinitCall.variables?.channelId === followedId;
  const qr = useQr(followedId, panel.kind === 'follow' && wantsQr(followed) && !restarting);

  // The link may name the transport to connect: the form starts with it chosen.
  const linkTransport = session.transport;
  useEffect(() => {
    if (linkTransport) ui().startNew(linkTransport);
  }, [linkTransport, ui]);

  // The admin comes back from the platform's page in another tab: the channel's link may have moved on meanwhile (VK
  // gives each step taken a link of its own, and the one used before is refused), so that channel is read again.
  const atPlatform = followed?.status === 'init' && followed.url ? followed.channel_id : null;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!atPlatform) return;
    const back = () => {
      if (document.visibilityState !== 'visible') return;
      void getChannel(client, atPlatform)
        .then((channel) => channel && queryClient.setQueryData(channelKeys.all, (list: BffChannel[] | undefined) => withChannel(list, channel)))
        .catch(() => undefined);
    };
    document.addEventListener('visibilitychange', back);
    window.addEventListener('focus', back);
    return () => {
      document.removeEventListener('visibilitychange', back);
      window.removeEventListener('focus', back);
    };
  }, [atPlatform, client, queryClient]);

  const { reset: resetPairing } = pairingCall;
  const { mutate: reinitMutate, reset: resetReinit } = reinitCall;
  /** Reinit with no credentials (QR and wapi channels); the new code follows. */
  const reinit = useCallback(
    (channelId: string, transport: Transport) => {
      ui().follow(channelId, transport);
      resetPairing();
      reinitMutate({ channelId });
    },
    [ui, resetPairing, reinitMutate],
  );

  const create = useCallback(
    async (transport: Transport, credentials: Record<string, string>) => {
      const created = await createCall.mutateAsync({ transport, credentials });
      resetReinit();
      resetPairing();
      ui().follow(created.channel_id, transport, created.url ?? null);
    },
    [createCall, ui, resetReinit, resetPairing],
  );

  /** A bot's reconnect form: its refusal is thrown back to the form. */
  const reinitWith = useCallback(
    async (channelId: string, transport: Transport, credentials: Record<string, string>) => {
      await reinitCall.mutateAsync({ channelId, credentials });
      ui().follow(channelId, transport);
    },
    [reinitCall, ui],
  );

  const reconnect = useCallback(
    (channel: BffChannel) => {
      if (reconnectsWithCredentials(channel)) ui().reconnect(channel.channel_id, channel.transport);
      else reinit(channel.channel_id, channel.transport);
    },
    [ui, reinit],
  );

  const follow = useCallback(
    (channel: BffChannel) => {
      resetReinit();
      resetPairing();
      ui().follow(channel.channel_id, channel.transport);
    },
    [ui, resetReinit, resetPairing],
  );

  const pairing = useCallback(async (_channelId: string, phone: string) => void (await pairingCall.mutateAsync(phone)), [pairingCall]);
  const twoFactor = useCallback(async (_channelId: string, _transport: ApiTransport, password: string) => twoFactorCall.mutateAsync(password), [twoFactorCall]);
  const remove = useCallback(async (channelId: string, deleteChats: boolean) => void (await removeCall.mutateAsync({ channelId, deleteChats })), [removeCall]);
  const startNew = useCallback((transport: Transport | null = null) => ui().startNew(transport), [ui]);

  // A frame opened for one channel starts at its reconnect, once the list says where that channel is.
  const planned = useRef(false);
  const list = channels.data;
  useEffect(() => {
    if (planned.current || !session.channel_id || !list) return;
    planned.current = true;
    const channel = list.find((c) => c.channel_id === session.channel_id);
    const plan = reconnectPlan(channel);
    if (plan === 'missing') ui().missing();
    else if (plan === 'reinit') reinit(channel!.channel_id, channel!.transport);
    else if (plan === 'credentials') ui().reconnect(channel!.channel_id, channel!.transport);
    else ui().follow(channel!.channel_id, channel!.transport);
  }, [session.channel_id, list, reinit, ui]);

  const following = {
    qr: restarting ? qrView(undefined) : qrView(qr.data),
    restarting,
    url: panel.kind === 'follow' ? panel.url : null,
  };
  const step = panel.kind === 'follow' ? connectStep(followed, following, deleted.has(panel.channelId)) : null;
  const failure = reinitCall.isError && reinitCall.variables?.channelId === followedId && !reinitCall.variables.credentials ? reinitCall.error : qr.isError ? qr.error : null;
  const pairingCode = pairingCall.data ? { code: pairingCall.data.pairing_code, phone: pairingCall.data.pairing_phone } : null;

  return {
    channels,
    panel,
    followed,
    step,
    pairingCode,
    error: failure ? refusalOf(failure, {}, lang).message : null,
    create,
    reinit,
    reinitWith,
    reconnect,
    follow,
    pairing,
    twoFactor,
    remove,
    startNew,
  };
}

export type Connect = ReturnType<typeof useConnect>;
