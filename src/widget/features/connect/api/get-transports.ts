import { useQuery } from '@tanstack/react-query';
import type { BffTransport } from '../../../../contract/session.ts';
import { useEmbed } from '@/lib/embed-context.tsx';

export const transportKeys = { all: ['transports'] as const };

const creatable = (all: BffTransport[]) => all.filter((t) => t.creatable);

/** The transports this frame can connect (GET /bff/transports; the others connect through a flow of their own). */
export function useTransports() {
  const { client } = useEmbed();
  return useQuery({ queryKey: transportKeys.all, queryFn: () => client.transports(), select: creatable });
}
