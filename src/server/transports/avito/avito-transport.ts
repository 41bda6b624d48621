import type { ChannelRepository, CredentialsCipher } from '../../core/channels/ports.ts';
import { systemClock, type Clock } from '../../core/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import type { LiveTransport } from '../live-transport.ts';
import { avitoAccounts } from './avito-account.ts';
import { avitoApi, type AvitoApplication } from './avito-api.ts';
import { avitoMessaging, connectAvito, disconnectAvito, type AvitoDriverDeps } from './avito-driver.ts';
import { avitoUpdateHook } from './avito-hook.ts';
import { avitoSubscriptionRegistrar } from './avito-subscription.ts';
import { tokenKeeper } from './avito-tokens.ts';

/** What the Avito transport takes of the live drivers' options. */
export interface AvitoTransportOptions {
  publicUrl: string;
  previousPublicUrl?: string | null;
  cipher: CredentialsCipher;
  /** Where renewed credentials are stored (Avito's rotating tokens): the channels, compared and swapped. */
  channels?: Pick<ChannelRepository, 'getById' | 'replaceCredentials'>;
  clock?: Clock;
  allowLoopbackFiles?: boolean;
  revoked(channelId: string, sealed: string | null): Promise<void>;
}

/**
 * Avito: an account connected by its OAuth code, its tokens kept and renewed (avito-tokens.ts), its calls in its
 * pace, its messages posted to the channel's hook with the channel's secret in the address.
 */
export function avitoTransport(
  options: AvitoTransportOptions,
  app: AvitoApplication,
  hookSecret: (channelId: string) => string,
  filesAgent: AvitoDriverDeps['filesAgent'],
  pacer: CallPacer,
): LiveTransport {
  if (!options.channels) throw new Error('the Avito driver stores renewed tokens: give it the channels');
  const api = avitoApi(app);
  const clock = options.clock ?? systemClock;
  const tokens = tokenKeeper({
    cipher: options.cipher,
    clock,
    channels: options.channels,
    refresh: (refreshToken) => api.grant({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    revoked: options.revoked,
  });
  const accounts = avitoAccounts({ api, tokens, pacer, revoked: options.revoked });
  const deps: AvitoDriverDeps = {
    api,
    accounts,
    clock,
    publicUrl: options.publicUrl,
    hookSecret,
    filesAgent,
    allowLoopbackFiles: options.allowLoopbackFiles ?? false,
  };
  return {
    connect: (channelId, credentials, previous) => connectAvito(deps, channelId, String(credentials.code), previous),
    disconnect: (channel) => disconnectAvito(deps, channel),
    messaging: avitoMessaging(deps),
    registrar: avitoSubscriptionRegistrar(deps, accounts, options.previousPublicUrl ?? null),
    hooks: (messages) => ({ update: avitoUpdateHook({ messages, hookSecret: deps.hookSecret }) }),
  };
}
