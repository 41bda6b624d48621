import type { Clock } from '../core/ports.ts';

/**
 * The OAuth side of the Avito emulator (developers.avito.ru "Авторизация"): `POST /token` with the application's keys
 * exchanges an authorization code (taken once) or a refresh token for a new pair. Access tokens live a day on the
 * injected clock and are refused with 403 once expired (as Avito documents); renewing spends the refresh token and
 * the pair's access token; an account that withdrew the authorization has its tokens refused with 401 and its
 * renewals with 400 `invalid_grant`.
 */

export const ACCESS_TOKEN_SECONDS = 86_400;

export interface TokenAnswer {
  status: number;
  body: unknown;
}

export interface Grant {
  grant_type: string;
  /** When it was asked (ms, the emulator's clock). */
  at: number;
  /** The account it was for, when it was given. */
  userId: number | null;
}

export function avitoAuthority(app: { clientId: string; clientSecret: string }, clock: Clock) {
  const codes = new Map<string, number>();
  const access = new Map<string, { userId: number; expiresAt: number; refresh: string }>();
  const refreshes = new Map<string, number>();
  const withdrawn = new Set<number>();
  const grants: Grant[] = [];
  let next = 1;

  const refused = (status: number, error: string, description: string): TokenAnswer => ({ status, body: { error, error_description: description } });

  function issue(userId: number): TokenAnswer {
    const n = next++;
    const pair = { access_token: `acc-${userId}-${n}`, refresh_token: `ref-${userId}-${n}` };
    access.set(pair.access_token, { userId, expiresAt: clock.now().getTime() + ACCESS_TOKEN_SECONDS * 1000, refresh: pair.refresh_token });
    refreshes.set(pair.refresh_token, userId);
    return { status: 200, body: { ...pair, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'Bearer', scope: 'messenger:read,messenger:write,user:read' } };
  }

  return {
    grants,
    /** An authorization code the account `userId` gave the application. */
    issueCode(userId: number): string {
      const code = `code-${userId}-${next++}`;
      codes.set(code, userId);
      return code;
    },
    /** The account withdraws the application's authorization. */
    withdraw: (userId: number) => void withdrawn.add(userId),
    /** The account's access tokens expire now, whatever they were given for (its refresh tokens still renew them). */
    expire(userId: number): void {
      for (const held of access.values()) if (held.userId === userId) held.expiresAt = clock.now().getTime();
    },

    token(form: URLSearchParams): TokenAnswer {
      const grant: Grant = { grant_type: form.get('grant_type') ?? '', at: clock.now().getTime(), userId: null };
      grants.push(grant);
      if (form.get('client_id') !== app.clientId || form.get('client_secret') !== app.clientSecret) return refused(401, 'invalid_client', 'client authentication failed');
      if (grant.grant_type === 'authorization_code') {
        const userId = codes.get(form.get('code') ?? '');
        if (userId === undefined || withdrawn.has(userId)) return refused(400, 'invalid_grant', 'authorization code is invalid or used');
        codes.delete(form.get('code')!);
        grant.userId = userId;
        return issue(userId);
      }
      if (grant.grant_type === 'refresh_token') {
        const given = form.get('refresh_token') ?? '';
        const userId = refreshes.get(given);
        if (userId === undefined || withdrawn.has(userId)) return refused(400, 'invalid_grant', 'refresh token is invalid');
        refreshes.delete(given);
        for (const [token, held] of access) if (held.refresh === given) access.delete(token);
        grant.userId = userId;
        return issue(userId);
      }
      return refused(400, 'unsupported_grant_type', 'grant type is not supported');
    },

    /** Whose a bearer token is: the account, or the status Avito refuses it with (401 unknown or withdrawn, 403 expired). */
    holder(authorization: string | undefined): { userId: number } | { status: number } {
      const held = access.get(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '');
      if (!held || withdrawn.has(held.userId)) return { status: 401 };
      if (clock.now().getTime() >= held.expiresAt) return { status: 403 };
      return { userId: held.userId };
    },
  };
}
