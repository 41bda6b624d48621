import type { CallLimits, CallPacer } from '../call-pacer.ts';
import type { LiveTransport } from '../live-transport.ts';
import { instagramLimits, instagramMediaLimits, type InstagramDeps } from './account.ts';
import { connectInstagram, letGoOfPage } from './connect.ts';
import { instagramLoginReturn, instagramLoginUrl } from './login.ts';
import { instagramMessaging } from './messaging.ts';
import { instagramSubscriptionRegistrar } from './subscription.ts';
import { instagramAppHook } from './webhook.ts';

/**
 * Instagram through Meta's Graph API: connecting checks the credentials and subscribes the page (or, without
 * credentials, sends the owner to Facebook Login, which comes back to `/hooks/instAPI/authorized`), sends go through
 * the page, and Meta's webhooks come to the app's one address, `/hooks/instagram`. Customers' files are Meta's CDN
 * addresses, handed on as they are (they hold no token). Each account's calls are paced, audio and video sends a
 * second time on their own budget.
 */
export function instagramTransport(
  deps: Omit<InstagramDeps, 'timeoutMs' | 'sendBudgetMs'>,
  pacerOf: (paced: 'instAPI' | 'instAPI-media', limits: CallLimits, pacesChat: (chatId: string) => boolean) => CallPacer,
): LiveTransport {
  const pacers = { account: pacerOf('instAPI', instagramLimits, () => false), media: pacerOf('instAPI-media', instagramMediaLimits, () => false) };
  const registrar = instagramSubscriptionRegistrar(deps, pacers);
  const login = deps.login ?? null;
  return {
    async connect(channelId, credentials, previous) {
      if (!login || Object.keys(credentials).length > 0) return connectInstagram(deps, pacers, channelId, credentials, previous);
      // No credentials: the owner logs in with Facebook. The account before (a reinit) stops posting here; logging in
      // with it again subscribes its page again.
      const before = previous?.credentials ?? null;
      return { kind: 'redirect', url: instagramLoginUrl(deps, login, channelId), ...(before ? { letGo: () => letGoOfPage(deps, pacers, channelId, before) } : {}) };
    },
    disconnect: (channel) => letGoOfPage(deps, pacers, channel.id, channel.credentials),
    messaging: instagramMessaging(deps, pacers),
    registrar,
    ...(login ? { authorization: instagramLoginReturn(deps, login, pacers, registrar.fingerprint) } : {}),
    hooks: (messages) => ({ app: { name: 'instagram', hook: instagramAppHook({ ...deps, messages, pacers }) } }),
  };
}
