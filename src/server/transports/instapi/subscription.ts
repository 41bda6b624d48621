import type { HookRegistrar } from '../../core/channels/hook-refresh.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import { pacedPage, pageOf, type InstagramDeps, type PageCredentials } from './account.ts';
import { letGoOfPage, PAGE_FIELDS } from './connect.ts';
import { isTokenRefused } from './graph-failures.ts';
import type { Pacers } from './people.ts';

/**
 * Meta posts every account's events to the app's one callback address, set in the app dashboard with its verify
 * token: neither is registered per channel, so PUBLIC_URL and PREVIOUS_PUBLIC_URL play no part here (after a change
 * of address the dashboard's callback is changed by hand). What each channel registers is its page's subscription
 * of the app, with PAGE_FIELDS; a page subscribed under other fields is subscribed again. A page cannot be
 * subscribed "elsewhere": a subscription is of the app, which only this gateway serves.
 */
export function instagramSubscriptionRegistrar(deps: InstagramDeps, pacers: Pacers): HookRegistrar {
  const fingerprint = hookFingerprint({ hookUrl: () => 'meta-app-callback', updateKinds: PAGE_FIELDS, hookSecret: () => 'meta-app-secret' });
  return {
    transport: 'instAPI',
    fingerprint,
    async refresh(channel, signal) {
      let page: PageCredentials;
      try {
        page = pageOf(deps.cipher, channel.credentials);
      } catch {
        // No page token (a channel connected in a sandbox run): nothing Meta would take; off until a reinit.
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
      try {
        await pacedPage(deps, pacers, page, { signal }).call('POST', `/${page.page_id}/subscribed_apps`, { query: { subscribed_fields: PAGE_FIELDS.join(',') } });
        return 'registered';
      } catch (err) {
        if (!isTokenRefused(err)) throw err;
        await deps.revoked?.(channel.id, channel.credentials);
        return 'revoked';
      }
    },
    // The channel has another account now, or is gone: its former page lets the app go, unless another channel has it.
    withdraw: (channel, signal) => letGoOfPage(deps, pacers, channel.id, channel.credentials, signal),
  };
}
