import type { BffChannel } from '../../../../contract/session.ts';

/** A channel as /bff/channels lists it, for the store's tests. */
export const channel = (over: Partial<BffChannel> = {}): BffChannel =>
  ({
    channel_id: 'c1',
    transport: 'whatsapp',
    state: 'qr',
    status: 'init',
    reason: 'qr',
    phone: null,
    username: null,
    messenger_id: null,
    name: null,
    tier: null,
    tariff: { plan: 'sandbox', paid: true },
    capabilities: { connect: 'qr', pairing_code: true, two_factor: false },
    ...over,
  }) as BffChannel;
