import { randomBytes } from 'node:crypto';

/**
 * VK's OAuth server as the emulator plays it: `GET /authorize` sends the browser back to `redirect_uri` with a code
 * for the user the test logged in (`state` as it came), or with `error=access_denied` when the user declines; a code
 * is exchanged once at `GET /access_token` (with the application's id and secret and the same `redirect_uri`), for a
 * user's token or for the key of the community named by `group_ids` (`access_token_<id>`), which the user must
 * administer.
 */

type Grant = { kind: 'user'; userId: number } | { kind: 'group'; groupId: number };

export function vkAuthority(app: { appId: string; appSecret: string }, adminOf: (userId: number) => number[]) {
  const codes = new Map<string, { grant: Grant; redirectUri: string }>();
  /** Tokens given, by token: whose. */
  const tokens = new Map<string, Grant>();
  const refusedGroups = new Set<number>();
  let user: number | null = null;
  let declineNext = false;

  const token = (grant: Grant) => {
    const t = `vk1.a.${randomBytes(18).toString('base64url')}`;
    tokens.set(t, grant);
    return t;
  };

  return {
    loginAs: (userId: number) => void (user = userId),
    declineNext: () => void (declineNext = true),
    /** The community's keys are refused from now on (VK's error 5), as after the community withdrew them. */
    revoke: (groupId: number) => void refusedGroups.add(groupId),
    /** Whose a token is, unless refused. */
    holder(t: string): Grant | null {
      const grant = tokens.get(t);
      if (!grant || (grant.kind === 'group' && refusedGroups.has(grant.groupId))) return null;
      return grant;
    },
    /** The browser's visit to VK's OAuth page: where VK sends it on. */
    authorize(query: URLSearchParams): { status: number; location?: string; text?: string } {
      const redirect = query.get('redirect_uri');
      if (query.get('client_id') !== app.appId || !redirect) return { status: 400, text: 'invalid client_id or redirect_uri' };
      const back = new URL(redirect);
      if (query.get('state') !== null) back.searchParams.set('state', query.get('state')!);
      if (declineNext || user === null) {
        declineNext = false;
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'User denied your request');
        return { status: 302, location: back.toString() };
      }
      const groupIds = query.get('group_ids');
      let grant: Grant = { kind: 'user', userId: user };
      if (groupIds !== null) {
        const groupId = Number(groupIds);
        if (!adminOf(user).includes(groupId)) return { status: 403, text: 'not an administrator of the community' };
        grant = { kind: 'group', groupId };
      }
      const code = randomBytes(9).toString('hex');
      codes.set(code, { grant, redirectUri: redirect });
      back.searchParams.set('code', code);
      return { status: 302, location: back.toString() };
    },
    /** `GET /access_token`. */
    exchange(query: URLSearchParams): { status: number; body: Record<string, unknown> } {
      if (query.get('client_id') !== app.appId || query.get('client_secret') !== app.appSecret) return { status: 401, body: { error: 'invalid_client', error_description: 'client_secret is incorrect' } };
      const code = query.get('code') ?? '';
      const given = codes.get(code);
      codes.delete(code);
      if (!given || given.redirectUri !== query.get('redirect_uri')) return { status: 401, body: { error: 'invalid_grant', error_description: 'Code is invalid or expired.' } };
      if (given.grant.kind === 'user') return { status: 200, body: { access_token: token(given.grant), expires_in: 86400, user_id: given.grant.userId } };
      return { status: 200, body: { [`access_token_${given.grant.groupId}`]: token(given.grant), expires_in: 0 } };
    },
  };
}
