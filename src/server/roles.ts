/**
 * What one gateway process does. Every process can do both; a deployment that scales the API and the
 * background work apart names one role per process (GATEWAY_ROLES=api or GATEWAY_ROLES=workers).
 *
 * - `api`: the `/v2` interface, the frames' `/bff` and socket.io, the widget and `/docs`. A process without it
 *   answers only its health, readiness and metrics, so an orchestrator can still watch it.
 * - `workers`: sending, webhook deliveries, channel timers (QR refresh and expiry), exports, the live bots' hook
 *   refresh and the embedded database's maintenance. A process without it only accepts work, which the
 *   processes with it pick up (woken through the database's notifications).
 */
export type GatewayRole = 'api' | 'workers';

export interface GatewayRoles {
  api: boolean;
  workers: boolean;
}

export const allRoles: GatewayRoles = { api: true, workers: true };

const known: readonly GatewayRole[] = ['api', 'workers'];

/** Parses GATEWAY_ROLES (a comma-separated list); answers the problem in words when it names something else. */
export function parseRoles(raw: string | null): { roles: GatewayRoles; problem: string | null } {
  if (raw === null) return { roles: allRoles, problem: null };
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !known.includes(n as GatewayRole));
  if (unknown.length > 0 || names.length === 0) {
    const what = unknown.length > 0 ? `unknown role "${unknown.join('", "')}"` : 'no role';
    return { roles: allRoles, problem: `GATEWAY_ROLES must list api, workers or both (comma-separated), got ${what}` };
  }
  return { roles: { api: names.includes('api'), workers: names.includes('workers') }, problem: null };
}
