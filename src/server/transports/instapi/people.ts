import type { ChannelRecord } from '../../core/channels/ports.ts';
import type { MessengerPeer } from '../../core/messages/peers.ts';
import type { Clock } from '../../core/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import { pacedPage, pageOf, type InstagramDeps } from './account.ts';
import { GraphApiError, GraphApiUnreachable } from '../meta/graph-api.ts';
import { isTokenRefused, mayPass } from './graph-failures.ts';

/**
 * Who writes: Meta names a customer by their Instagram-scoped id (IGSID), the interface names an instagram chat by
 * the customer's account name. The name comes from Meta's User Profile API (`GET /{IGSID}?fields=name,username`, with
 * the page's token; `username` since Graph API v14) and is kept in the peer directory, which is also where a send
 * finds the IGSID behind a chat. Meta answers for a person who wrote to the account (their "consent"): for anyone
 * else, or when Meta does not say (no such user, a profile it withholds), the person is known by their IGSID, which
 * then is the chat's id.
 */

/** How long a name is taken as Meta gave it before Meta is asked again, on the person's next message. */
export const RECHECK_AFTER_MS = 24 * 60 * 60_000;
/** A profile lookup happens while Meta waits for the answer to its webhook: it must not take long. */
const LOOKUP_TIMEOUT_MS = 5_000;
/** Instagram's account names: letters, digits, periods and underscores, at most 30; compared without case. */
const USERNAME = /^[A-Za-z0-9._]{1,30}$/;

/** Meta could not say now who a new person is (out of reach, failing, throttling): the update is to come again later. */
export class PeerLookupFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeerLookupFailed';
  }
}

export type Pacers = { account: CallPacer; media: CallPacer };

export interface PeerResolver {
  /**
   * The person behind `peerId` on the channel, named as their chat is. With `ask` (they wrote), Meta is asked when
   * the person is not known, or was last asked about more than RECHECK_AFTER_MS ago; without, only the directory is
   * read (a read receipt, a deletion: nothing of a person never recorded is to change). Null when not known;
   * `revoked` when Meta no longer takes the page's token (the channel is switched off). Throws PeerLookupFailed
   * when a person not known yet cannot be asked about now.
   */
  resolve(channel: Pick<ChannelRecord, 'id' | 'credentials'>, peerId: string, ask: boolean): Promise<MessengerPeer | null | 'revoked'>;
}

export function peerResolver(deps: InstagramDeps, pacers: Pacers, clock: Clock): PeerResolver {
  return {
    async resolve(channel, peerId, ask) {
      const known = await deps.peers.byPeerId(channel.id, peerId);
      const now = clock.now();
      const named = known?.handle ? known : null;
      if (!ask || (named && now.getTime() - named.checkedAt.getTime() < RECHECK_AFTER_MS)) return named;
      let profile: { name?: unknown; username?: unknown } = {};
      try {
        const api = pacedPage(deps, pacers, pageOf(deps.cipher, channel.credentials));
        profile = await api.call('GET', `/${peerId}`, { query: { fields: 'name,username' }, timeoutMs: LOOKUP_TIMEOUT_MS });
      } catch (err) {
        if (isTokenRefused(err)) {
          await deps.revoked?.(channel.id, channel.credentials);
          return 'revoked';
        }
        // A name known before stands until Meta can be asked again.
        if (named) return named;
        if (err instanceof GraphApiUnreachable || (err instanceof GraphApiError && mayPass(err))) throw new PeerLookupFailed(`the profile of ${peerId} could not be read: ${err.message}`);
        if (!(err instanceof GraphApiError)) throw err;
        // Meta does not say who it is (error 230, no consent; no such user; withheld): known by the id from now on.
      }
      const username = typeof profile?.username === 'string' && USERNAME.test(profile.username) ? profile.username.toLowerCase() : null;
      const name = typeof profile?.name === 'string' && profile.name.trim() ? profile.name.trim().slice(0, 256) : (known?.name ?? null);
      const peer: MessengerPeer = { peerId, handle: username ?? named?.handle ?? peerId, name, checkedAt: now };
      await deps.peers.save(channel.id, peer);
      return peer;
    },
  };
}
