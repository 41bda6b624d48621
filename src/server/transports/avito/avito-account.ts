import { DeadlinePassed, untilDeadline } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import { AvitoApiError, type AvitoApi, type AvitoSelf, type CallOptions } from './avito-api.ts';
import { mayRefuseToken } from './avito-failures.ts';
import { AuthorizationWithdrawn, type AvitoAccess, type TokenKeeper } from './avito-tokens.ts';

/** The account's calls, with its token put in and each call in the account's pace. */
export interface AccountApi {
  /** The Avito account (user id) every messenger path names. */
  userId: string;
  call<T>(method: 'GET' | 'POST', path: string, options?: Omit<CallOptions, 'token' | 'signal'>): Promise<T>;
}

export interface AccountDeps {
  api: AvitoApi;
  tokens: TokenKeeper;
  pacer: CallPacer;
  /** The channel's authorization was withdrawn: switched off, unless its credentials changed since `sealed`. */
  revoked(channelId: string, sealed: string | null): Promise<void>;
}

/**
 * Acts as a channel's Avito account. Each call waits its turn in the account's pace (keyed by its user id, which is no
 * secret and stays the same as its tokens rotate); with a deadline (`signal`), one still waiting when it passes is not
 * made, and one under way is ended.
 *
 * A refusal that may be of the token rather than of the call is told apart before anything else: a 401 always is; a
 * 403 is (an expired token answers 403, developers.avito.ru) when Avito refuses the same token to say whose it is
 * (`GET /core/v1/accounts/self`), and is the call's own refusal when it answers. A refused token is renewed (or the
 * pair another process stored since is taken) and the work done once more, from its start; refused again with 401,
 * the authorization is taken as withdrawn and the channel switched off.
 */
export function avitoAccounts(deps: AccountDeps) {
  function accountOf(access: AvitoAccess, signal?: AbortSignal): AccountApi {
    return {
      userId: access.userId,
      call: (method, path, options = {}) =>
        untilDeadline(
          deps.pacer.pace(access.userId, null, () => {
            if (signal?.aborted) throw new DeadlinePassed();
            return deps.api.call(method, path, { ...options, token: access.accessToken, ...(signal ? { signal } : {}) });
          }),
          signal,
        ),
    };
  }

  /** Whether Avito refused the token itself (see above); a failure to tell is the call's failure. */
  async function tokenRefused(err: AvitoApiError, access: AvitoAccess, signal?: AbortSignal): Promise<boolean> {
    if (err.status === 401) return true;
    try {
      await accountOf(access, signal).call<AvitoSelf>('GET', '/core/v1/accounts/self');
      return false;
    } catch (check) {
      if (check instanceof AvitoApiError && (check.status === 401 || check.status === 403)) return true;
      throw check;
    }
  }

  return {
    /** Acts with a token in hand (a code just exchanged, before any channel holds it). */
    as: accountOf,
    /** Acts as the account of credentials a reinit is replacing, for a last call; null when they no longer give a token. */
    async former(sealed: string, signal?: AbortSignal): Promise<AccountApi | null> {
      const access = await deps.tokens.detached(sealed);
      return access && accountOf(access, signal);
    },
    /** Runs `work` as the channel's account (its credentials as the caller read them: `sealed`). */
    async run<T>(channelId: string, sealed: string | null, signal: AbortSignal | undefined, work: (account: AccountApi) => Promise<T>): Promise<T> {
      let access = await deps.tokens.access(channelId, sealed, signal);
      try {
        return await work(accountOf(access, signal));
      } catch (err) {
        if (!mayRefuseToken(err) || !(await tokenRefused(err, access, signal))) throw err;
      }
      access = await deps.tokens.afterRefusal(channelId, access, signal);
      try {
        return await work(accountOf(access, signal));
      } catch (err) {
        if (!(err instanceof AvitoApiError && err.status === 401)) throw err;
        await deps.revoked(channelId, access.sealed);
        throw new AuthorizationWithdrawn('Avito refused the renewed token');
      }
    },
  };
}

export type AvitoAccounts = ReturnType<typeof avitoAccounts>;
