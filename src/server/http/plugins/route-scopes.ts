import type { Scope } from '../../core/auth/ports.ts';

/**
 * The scope an OAuth access token needs for a /v2 or /v3 route, by the route's first path segment: `transport` for channels
 * (and their templates), `crm` for messages, people, deals, settings and frames. Routes named nowhere (webhooks,
 * the sandbox) take a token of either scope.
 */
const bySegment: Record<string, Scope> = {
  channels: 'transport',
  templates: 'transport',
  messages: 'crm',
  chats: 'crm',
  users: 'crm',
  contacts: 'crm',
  deals: 'crm',
  pipelines: 'crm',
  settings: 'crm',
  counters: 'crm',
  'iframe-links': 'crm',
  // The v3 face's own segments.
  message: 'crm',
  iframe: 'crm',
  unanswered: 'crm',
  embedding: 'crm',
  exports: 'crm',
};

export function scopeOfRoute(routeUrl: string | undefined): Scope | null {
  const segment = /^\/v[23]\/([^/]+)/.exec(routeUrl ?? '')?.[1];
  return (segment && bySegment[segment]) || null;
}
