import { useMutation } from '@tanstack/react-query';
import type { BffClient } from '@/lib/bff-client.ts';
import { useEmbed } from '@/lib/embed-context.tsx';
import { channelPath } from './get-channels.ts';

export interface PairingCode {
  pairing_code: string;
  pairing_phone: string;
}

/** POST /bff/channels/{id}/pairing-code: whatsapp's 8-character code, while a QR is live. */
export const requestPairingCode = async (client: BffClient, channelId: string, phone: string): Promise<PairingCode> =>
  (await client.request<PairingCode[]>('POST', `${channelPath(channelId)}/pairing-code`, { pairing_phone: phone, transport: 'whatsapp' }))[0]!;

/** Asks for the pairing code of a number; the code is the mutation's answer. */
export function usePairingCode(channelId: string) {
  const { client } = useEmbed();
  return useMutation({ mutationFn: (phone: string) => requestPairingCode(client, channelId, phone) });
}
