import { setTimeout as sleep } from 'node:timers/promises';
import type { ChannelRepository, CredentialsCipher } from '../../core/channels/ports.ts';
import type { Clock } from '../../core/ports.ts';
import { untilDeadline } from '../bot-common.ts';
import { GrantRefused, type TokenGrant } from './avito-api.ts';

/**
 * An Avito channel's authorization: the pair of tokens its OAuth code was exchanged for, sealed with the channel's
 * credentials. The access token lives a day (`expires_in` 86400, developers.avito.ru "Авторизация"); the refresh token
 * renews it, and renewing gives a new pair: Avito says to store both, and the refresh token just used is assumed to
 * be spent (as rotating refresh tokens are). So one renewal at a time per channel, across processes: a renewal is
 * claimed by a compare-and-swap on the stored sealed credentials (the claim is a mark in them, `renewing_until`),
 * the winner asks Avito and stores the new pair over its claim, and the others wait for the pair to change and read
 * it. A renewal Avito refuses means the account withdrew the authorization: the channel is switched off.
 */

/** What is sealed for an Avito channel. */
export interface AvitoCredentials {
  access_token: string;
  refresh_token: string;
  /** When the access token expires (ms since the epoch, on the gateway's clock). */
  expires_at: number;
  /** The Avito account (its user id): every messenger path names it. */
  user_id: string;
  /** A process is renewing the pair until then (ms since the epoch); others wait for it. */
  renewing_until?: number;
}

/** The account's token to call with, and the sealed credentials it came from. */
export interface AvitoAccess {
  userId: string;
  accessToken: string;
  sealed: string;
}

/** Avito no longer renews the channel's authorization (the account withdrew it): the channel was switched off. */
export class AuthorizationWithdrawn extends Error {
  constructor(message = 'Avito refused to renew the authorization') {
    super(message);
    this.name = 'AuthorizationWithdrawn';
  }
}

/** Renewed this long before the access token expires, so that no call is made with one about to expire. */
const RENEW_BEFORE_MS = 10 * 60_000;
/** How long a claim on a renewal holds: longer than a `POST /token` may take (its timeout), so that no two overlap. */
const CLAIM_MS = 30_000;
/** How often a process waiting for another's renewal looks whether the pair changed. */
const POLL_MS = 200;

/** The credentials sealed as Avito's, or null when they are not (another transport's, or none). */
export function avitoCredentialsOf(cipher: CredentialsCipher, sealed: string | null | undefined): AvitoCredentials | null {
  if (!sealed) return null;
  let c: Record<string, unknown>;
  try {
    c = cipher.open(sealed);
  } catch {
    return null;
  }
  const { access_token, refresh_token, expires_at, user_id, renewing_until } = c;
  if (typeof access_token !== 'string' || typeof refresh_token !== 'string' || typeof expires_at !== 'number' || typeof user_id !== 'string') return null;
  return { access_token, refresh_token, expires_at, user_id, ...(typeof renewing_until === 'number' ? { renewing_until } : {}) };
}

/** The credentials a grant gives for the account `userId`, as they are sealed. */
export const credentialsFrom = (grant: TokenGrant, userId: string, now: Date): AvitoCredentials => ({
  access_token: grant.access_token,
  refresh_token: grant.refresh_token,
  expires_at: now.getTime() + grant.expires_in * 1000,
  user_id: userId,
});

export interface TokenKeeperDeps {
  cipher: CredentialsCipher;
  clock: Clock;
  channels: Pick<ChannelRepository, 'getById' | 'replaceCredentials'>;
  /** `POST /token` with `grant_type=refresh_token`. */
  refresh(refreshToken: string): Promise<TokenGrant>;
  /** The channel's authorization was withdrawn: switched off, unless its credentials changed since `sealed`. */
  revoked(channelId: string, sealed: string | null): Promise<void>;
  pollMs?: number;
}

export interface TokenKeeper {
  /** The token to call with: the one in `sealed` while it has time left, else a renewed one. */
  access(channelId: string, sealed: string | null, signal?: AbortSignal): Promise<AvitoAccess>;
  /** Avito refused the token `used`: the pair stored since, if another process renewed it, else a renewed one. */
  afterRefusal(channelId: string, used: AvitoAccess, signal?: AbortSignal): Promise<AvitoAccess>;
  /**
   * The token of credentials no longer kept (a reinit is replacing them), for a last call: theirs while it has time
   * left, else one renewed for it and not stored; null when they hold none, or Avito will not renew them. Nothing is
   * switched off for it.
   */
  detached(sealed: string): Promise<AvitoAccess | null>;
}

/**
 * The channel holds no Avito tokens (made in a sandbox run, whose channels keep their code): it has no authorization
 * here, as after one withdrawn, and is switched off until a reinit with a code of the gateway's application.
 */
async function unauthorized(deps: Pick<TokenKeeperDeps, 'revoked'>, channelId: string, sealed: string | null): Promise<never> {
  await deps.revoked(channelId, sealed);
  throw new AuthorizationWithdrawn('The channel holds no Avito authorization; reconnect it with a new code');
}

export function tokenKeeper(deps: TokenKeeperDeps): TokenKeeper {
  const { cipher, clock } = deps;
  const pollMs = deps.pollMs ?? POLL_MS;
  /**
   * One renewal per channel in this process, for each reason (the token's time ran out, or Avito refused a given
   * token): concurrent calls for the same reason share it. One for a refused token never takes the answer of one
   * that may find that very token still good by its time.
   */
  const renewals = new Map<string, Promise<AvitoAccess>>();
  const hasTime = (c: AvitoCredentials) => c.expires_at - RENEW_BEFORE_MS > clock.now().getTime();
  const accessOf = (c: AvitoCredentials, sealed: string): AvitoAccess => ({ userId: c.user_id, accessToken: c.access_token, sealed });

  /**
   * Brings the stored pair to one that is not `refused` (an access token Avito refused) and has time left: the pair
   * as stored when it already is, else renewed by this process once it holds the claim, or by the one that does.
   */
  async function renew(channelId: string, fallback: string, refused: string | null): Promise<AvitoAccess> {
    for (;;) {
      const channel = await deps.channels.getById(channelId);
      // Gone (deleted, and being let go of): renewed for this once, nothing stored.
      const current = channel ? channel.credentials : fallback;
      const c = avitoCredentialsOf(cipher, current);
      if (!c || !current) return unauthorized(deps, channelId, current);
      if (c.access_token !== refused && hasTime(c)) return accessOf(c, current);
      const now = clock.now().getTime();
      if (channel && c.renewing_until !== undefined && c.renewing_until > now) {
        await sleep(pollMs);
        continue;
      }
      const claim = channel ? cipher.seal({ ...c, renewing_until: now + CLAIM_MS }) : null;
      if (claim && !(await deps.channels.replaceCredentials(channelId, current, claim))) continue;
      let grant: TokenGrant;
      try {
        grant = await deps.refresh(c.refresh_token);
      } catch (err) {
        if (err instanceof GrantRefused) {
          await deps.revoked(channelId, claim ?? current);
          throw new AuthorizationWithdrawn(`Avito refused to renew the authorization: ${err.message}`);
        }
        // The claim is given back: the next call may renew at once rather than wait for it to lapse.
        if (claim) await deps.channels.replaceCredentials(channelId, claim, current).catch(() => false);
        throw err;
      }
      const next = cipher.seal({ ...credentialsFrom(grant, c.user_id, clock.now()) });
      if (!claim || (await deps.channels.replaceCredentials(channelId, claim, next))) return { userId: c.user_id, accessToken: grant.access_token, sealed: next };
      // The credentials changed under the claim (a reinit stored others): those stand.
    }
  }

  /**
   * The renewal runs to its end whoever waits for it (each waiter only as long as its own deadline): it is bounded by
   * the claim it waits out and the timeout of `POST /token`, and one given up halfway would leave its claim to lapse.
   */
  function shared(channelId: string, fallback: string, refused: string | null, signal?: AbortSignal): Promise<AvitoAccess> {
    const key = `${channelId} ${refused ?? ''}`;
    let renewal = renewals.get(key);
    if (!renewal) {
      renewal = renew(channelId, fallback, refused).finally(() => renewals.delete(key));
      renewals.set(key, renewal);
    }
    return untilDeadline(renewal, signal);
  }

  return {
    async access(channelId, sealed, signal) {
      const c = avitoCredentialsOf(cipher, sealed);
      if (!c || !sealed) return unauthorized(deps, channelId, sealed);
      return hasTime(c) ? accessOf(c, sealed) : shared(channelId, sealed, null, signal);
    },
    afterRefusal: (channelId, used, signal) => shared(channelId, used.sealed, used.accessToken, signal),
    async detached(sealed) {
      const c = avitoCredentialsOf(cipher, sealed);
      if (!c) return null;
      if (hasTime(c)) return accessOf(c, sealed);
      const grant = await deps.refresh(c.refresh_token).catch(() => null);
      return grant && { userId: c.user_id, accessToken: grant.access_token, sealed: '' };
    },
  };
}
