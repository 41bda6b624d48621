import type { Transport } from '../../contract/channels.ts';
import { AppError, validationError } from '../core/errors.ts';

export type LiveTransportName = 'telegram' | 'maxbot' | 'avito' | 'instAPI' | 'wapi' | 'vk' | 'tgapi' | 'whatsapp';

/**
 * The transports this version reaches on the real platforms (TRANSPORT_MODE=live); Avito's once the gateway's Avito
 * application is configured, Instagram's once it is set up as a Meta app.
 */
export const liveTransports: readonly LiveTransportName[] = ['telegram', 'maxbot', 'avito', 'instAPI', 'wapi', 'vk', 'tgapi', 'whatsapp'];

/** What a transport the gateway's configuration leaves out lacks. */
const notConfigured: Partial<Record<Transport, string>> = {
  avito: 'is not configured on this gateway: AVITO_CLIENT_ID and AVITO_CLIENT_SECRET (the Avito application) are not set',
  instAPI: 'is not set up on this gateway (META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN)',
  wapi: 'is not set up on this gateway (META_APP_ID, META_APP_SECRET, META_VERIFY_TOKEN and WHATSAPP_SIGNUP_CONFIG_ID)',
  vk: 'is not configured on this gateway: VK_APP_ID and VK_APP_SECRET (the VK application) are not set',
  tgapi: 'is not configured on this gateway: TELEGRAM_API_ID and TELEGRAM_API_HASH (the Telegram application) are not set',
  whatsapp:
    'has no live driver enabled on this gateway: personal WhatsApp accounts need WHATSAPP_PERSONAL=on and the optional package baileys (WhatsApp Web’s library, GPL-3.0 through libsignal) installed',
  viber: 'has no live driver: Viber offers no maintained library for personal accounts, so viber channels run in the sandbox only',
  max: 'has no live driver: MAX offers no maintained library for personal accounts, so max channels run in the sandbox only (MAX bots are maxbot)',
};

/**
 * A transport this gateway cannot connect is refused by the `transport` field, whatever the reason: no live driver, or
 * its platform's application not configured. Not a 503: nothing passes by trying again; the operator must configure
 * the gateway, and the channels frame does not offer the transport meanwhile.
 */
export const notLive = (transport: Transport, live: readonly string[]) =>
  validationError(
    [{ field: 'transport', message: notConfigured[transport] ?? `has no live driver in this version (live: ${live.join(', ')})` }],
    `${transport} channels cannot be connected on this gateway`,
  );

/** No live transport connects by QR or two-factor password yet, and wapi's page is Meta's: those steps are never reached. */
export const noSuchStep = () => new AppError('CHANNEL_WRONG_STATUS', 'This step does not apply to the live transports of this version');

/** A reaction asked of a transport whose platform (or driver) has none. */
export const noReactions = (transport: string) => new AppError('CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS', `Messages of ${transport} channels cannot be reacted to`);
