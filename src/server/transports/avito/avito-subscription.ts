import type { HookRegistrar, OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import { hookUrl } from '../bot-common.ts';
import { hookFingerprint } from '../hook-fingerprint.ts';
import type { AccountApi, AvitoAccounts } from './avito-account.ts';
import { AuthorizationWithdrawn } from './avito-tokens.ts';

/**
 * Where Avito posts an account's messages: `POST /messenger/v3/webhook {url}` adds an address (each gets every
 * notification), `POST /messenger/v1/subscriptions` lists them (`{subscriptions: [{url, version}]}`), and
 * `POST /messenger/v1/webhook/unsubscribe {url}` removes one (developers.avito.ru, "Мессенджер"). Avito takes no
 * secret of its own, so the address holds the channel's: `<PUBLIC_URL>/hooks/avito/<channel id>?secret=…`.
 */

/** What the fingerprint names as the kind of notifications asked for: version 3 of Avito's, messages alone. */
const NOTIFICATIONS: readonly string[] = ['messenger/v3'];

/** The address without its query (the secret): which channel's hook it is, at which gateway. */
const pathOf = (url: string): string => url.split(/[?#]/, 1)[0]!;

export interface HookAddresses {
  publicUrl: string;
  hookSecret(channelId: string): string;
}

/** The address Avito is given for a channel: its hook, with the channel's secret. */
export const subscriptionUrl = (deps: HookAddresses, channelId: string): string =>
  `${hookUrl(deps.publicUrl, 'avito', channelId)}?secret=${encodeURIComponent(deps.hookSecret(channelId))}`;

/** The addresses the account is subscribed to. */
export async function subscribedUrls(account: AccountApi): Promise<string[]> {
  const found = await account.call<{ subscriptions?: { url?: unknown }[] }>('POST', '/messenger/v1/subscriptions');
  return (Array.isArray(found?.subscriptions) ? found.subscriptions : []).map((s) => s?.url).filter((url): url is string => typeof url === 'string');
}

export async function subscribe(account: AccountApi, url: string): Promise<void> {
  const answer = await account.call<{ ok?: unknown }>('POST', '/messenger/v3/webhook', { body: { url } });
  if (answer?.ok === false) throw new Error('Avito answered the subscription with ok: false');
}

export const unsubscribe = (account: AccountApi, url: string): Promise<unknown> => account.call('POST', '/messenger/v1/webhook/unsubscribe', { body: { url } });

/**
 * Among the account's addresses, those to this gateway's Avito hooks other than the channel's own as it is now: other
 * channels' (an account serves one channel here, the one connected last: each address gets every message), and the
 * channel's own under a secret it no longer has. Other hosts' (the account owner's own, another gateway's) are left.
 */
export const otherHooks = (deps: HookAddresses, channelId: string, urls: readonly string[]): string[] => {
  const mine = subscriptionUrl(deps, channelId);
  return urls.filter((url) => url !== mine && pathOf(url).startsWith(`${deps.publicUrl}/hooks/avito/`));
};

/** Removes the account's other subscriptions to this gateway's hooks (best effort: those left are found by the next connect). */
export async function dropOtherHooks(deps: HookAddresses, account: AccountApi, channelId: string): Promise<void> {
  let found: string[];
  try {
    found = await subscribedUrls(account);
  } catch {
    return;
  }
  for (const url of otherHooks(deps, channelId, found)) await unsubscribe(account, url).catch(() => {});
}

/**
 * Subscribes channels subscribed under other settings again (another PUBLIC_URL, or SECRET_KEY, which changes the
 * secret in the address), as connecting does, but only where the account posts to this gateway's hook for the
 * channel, whatever its secret, or to the channel's hook under PREVIOUS_PUBLIC_URL: an account posting elsewhere may
 * have been moved there on purpose, or by another deployment with the same channels. The account's other addresses at
 * this gateway, and the channel's under PREVIOUS_PUBLIC_URL, are removed; other hosts' are never touched.
 */
export function avitoSubscriptionRegistrar(deps: HookAddresses, accounts: AvitoAccounts, previousPublicUrl: string | null = null): HookRegistrar {
  const previousHook = previousPublicUrl === null ? undefined : (channelId: string) => hookUrl(previousPublicUrl, 'avito', channelId);
  const fingerprint = hookFingerprint({
    hookUrl: (id) => subscriptionUrl(deps, id),
    updateKinds: NOTIFICATIONS,
    hookSecret: deps.hookSecret,
    ...(previousHook ? { previousHookUrl: previousHook } : {}),
  });
  const asAccount = <T>(channel: OutdatedChannel, signal: AbortSignal, work: (account: AccountApi) => Promise<T>) => accounts.run(channel.id, channel.credentials, signal, work);
  return {
    transport: 'avito',
    fingerprint,
    async refresh(channel, signal) {
      const mine = subscriptionUrl(deps, channel.id);
      const ours = [hookUrl(deps.publicUrl, 'avito', channel.id), previousHook?.(channel.id)];
      try {
        return await asAccount(channel, signal, async (account) => {
          const found = await subscribedUrls(account);
          if (!found.some((url) => ours.includes(pathOf(url)))) return 'elsewhere' as const;
          await subscribe(account, mine);
          const before = previousHook?.(channel.id);
          const stale = [...otherHooks(deps, channel.id, found), ...found.filter((url) => pathOf(url) === before)];
          for (const url of new Set(stale)) await unsubscribe(account, url).catch(() => {});
          return 'registered' as const;
        });
      } catch (err) {
        if (err instanceof AuthorizationWithdrawn) return 'revoked';
        throw err;
      }
    },
    async withdraw(channel, signal) {
      // Only the channel's own address goes: the account may have been connected to another channel since.
      await asAccount(channel, signal, (account) => unsubscribe(account, subscriptionUrl(deps, channel.id)));
    },
  };
}
