import type { HookRegistrar } from '../../core/channels/hook-refresh.ts';
import type { CallPacer } from '../call-pacer.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import { numberOf, pacedNumber, type WhatsAppDeps } from './account.ts';
import { isTokenRefused } from './cloud-failures.ts';
import { letGoOfAccount } from './connect-number.ts';

/**
 * The webhook fields of a WhatsApp Business Account the gateway reads (set on the app's WhatsApp product in Meta's
 * dashboard, where they are subscribed once for every account): a subscription of the app by an account brings them.
 * Named here so that a release reading more of them brings the accounts subscribed before up to date.
 */
export const ACCOUNT_FIELDS: readonly string[] = ['messages', 'message_template_status_update', 'phone_number_quality_update', 'account_update'];

/**
 * Meta posts every account's events to the app's one callback address, set in the dashboard: nothing is registered per
 * channel but the account's subscription of the app (`POST /{waba_id}/subscribed_apps`), made again by the hook
 * refresh for channels subscribed under other settings. `refreshed` hears of each channel subscribed again, so that
 * what else the account holds (its templates) is read again with it.
 */
export function whatsappSubscriptionRegistrar(deps: WhatsAppDeps, pacer: CallPacer, refreshed: (channelId: string, signal: AbortSignal) => Promise<void> = async () => {}): HookRegistrar {
  const fingerprint = hookFingerprint({ hookUrl: () => 'meta-app-callback/whatsapp', updateKinds: ACCOUNT_FIELDS, hookSecret: () => 'meta-app-secret' });
  return {
    transport: 'wapi',
    fingerprint,
    async refresh(channel, signal) {
      const number = numberOf(deps.cipher, channel.credentials);
      if (!number) {
        // No business token (a channel connected in a sandbox run): nothing Meta would take; off until a reinit.
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
      try {
        await pacedNumber(deps, pacer, number, signal).call('POST', `/${number.waba_id}/subscribed_apps`);
      } catch (err) {
        if (!isTokenRefused(err)) throw err;
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
      await refreshed(channel.id, signal);
      return 'registered';
    },
    withdraw: (channel, signal) => letGoOfAccount(deps, pacer, channel.id, channel.credentials, signal),
  };
}
