import type { Scope } from '../core/auth/ports.ts';
import type { EmbedSessionRecord } from '../core/embedding/ports.ts';
import { AppError } from '../core/errors.ts';

/**
 * What a frame route needs of its session's scopes (the OAuth scopes of the token that made its link). Frames are
 * `crm`'s: every route needs it. Connecting, reconnecting and deleting channels, and what only that needs (the
 * transports offered, QR codes, pairing codes, two-factor passwords), need `transport` too, as /v2/channels does.
 * Reading the account's channels is the chat frame's as well, and needs `crm` only.
 */
export function scopesOfFrameRoute(method: string, routeUrl: string): Scope[] {
  if (routeUrl.startsWith('/bff/session')) return [];
  const readsChannels = method === 'GET' && /^\/bff\/channels(\/:channel_id)?$/.test(routeUrl);
  if (!readsChannels && /^\/bff\/(channels|transports)(\/|$)/.test(routeUrl)) return ['crm', 'transport'];
  return ['crm'];
}

/** Refuses a route the session's scopes do not reach; a session of a client token (no scopes kept) reaches all. */
export function assertSessionScopes(session: EmbedSessionRecord, method: string, routeUrl: string): void {
  const held = session.scopes;
  if (!held) return;
  const lacking = scopesOfFrameRoute(method, routeUrl).filter((s) => !held.includes(s));
  if (lacking.length > 0) throw new AppError('FORBIDDEN', `This frame's session lacks the ${lacking.join(' and ')} scope of the token that made its link`);
}
