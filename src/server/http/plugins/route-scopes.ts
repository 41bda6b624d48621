import type { Scope } from '../../core/auth/ports.ts';

/**
 * The scopes an OAuth access token needs for a /v2 or /v3 route, by the route's first path segment: `transport` for channels
 * (and their templates), `crm` for messages, people, deals, settings and frames. The connect frame's link needs both:
 * the frame connects and deletes channels. Routes named nowhere (webhooks) take a token of either scope.
 */
const bySegment: Record<string, Scope[]> = {
  channels: ['transport'],
  templates: ['transport'],
  messages: ['crm'],
  chats: ['crm'],
  users: ['crm'],
  contacts: ['crm'],
  deals: ['crm'],
  pipelines: ['crm'],
  settings: ['crm'],
  counters: ['crm'],
  'iframe-links': ['crm'],
  embedding: ['crm'],
  exports: ['crm'],
  // The v3 face's own segments.
  message: ['crm'],
  iframe: ['crm'],
  unanswered: ['crm'],
};

const byRoute: Record<string, Scope[]> = {
  '/v2/iframe-links/channels': ['crm', 'transport'],
};

/**
 * The simulated network's routes by what they touch: a channel's life (scanning, paying, tiers, templates, tokens,
 * two-factor passwords) is `transport`; chats, their messages, customers, groups and the simulated phone are `crm`.
 */
const sandboxTransport = /^\/v2\/sandbox\/(channels\/[^/]+\/(scan|payment|tier|revoke-token|templates)$|templates\/|phones\/)/;

export function scopesOfRoute(routeUrl: string | undefined): Scope[] {
  const url = routeUrl ?? '';
  const exact = byRoute[url];
  if (exact) return exact;
  if (url.startsWith('/v2/sandbox/')) return sandboxTransport.test(url) ? ['transport'] : ['crm'];
  const segment = /^\/v[23]\/([^/]+)/.exec(url)?.[1];
  return (segment && bySegment[segment]) || [];
}
