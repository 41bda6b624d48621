import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../core/auth/ports.ts';
import { scopesOfFrameRoute } from '../bff/frame-scopes.ts';
import { parseSessionToken } from '../core/embedding/session-token.ts';
import { createLink } from '../testing/frames.ts';
import type { TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { api, basic, PARTNER, startPartnerGateway } from '../testing/partner-http.ts';
import { databaseKind } from '../testing/test-database.ts';
import { scopesOfRoute } from './plugins/route-scopes.ts';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const MACHINE = 'urn:wazzup:oauth:token-type:machine_token';
const SOME_ID = '00000000-0000-4000-8000-000000000009';

/** The account's webhooks carry both scopes' events: a token of either scope manages them. */
const unscoped = (pattern: string) => /^\/v2\/webhooks(\/|$)/.test(pattern);

interface Route {
  method: string;
  url: string;
  /** A Server-Sent Events stream: it answers its status, then stays open. */
  streams?: boolean;
}

/** Every route of the OpenAPI document, with its path parameters filled in. */
async function documentedRoutes(t: TestGateway): Promise<(Route & { pattern: string })[]> {
  const doc = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => ({
        method: m.toUpperCase(),
        pattern: path.replace(/\{([^}]+)\}/g, ':$1'),
        url: path.replace(/\{[^}]+\}/g, SOME_ID),
        streams: JSON.stringify(methods[m]).includes('text/event-stream'),
      })),
  );
}

const lacksScope = (res: { statusCode: number; body: string }) => res.statusCode === 403 && /lacks the/.test(res.body);

describe(`OAuth scopes on every route, /bff and the sandbox included (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let base: string;
  const tokens = {} as Record<Scope, string>;
  const partner = basic(PARTNER.login, PARTNER.secret);

  const accessToken = async (accountId: number, scope: Scope) => {
    const machine = await api(base, 'POST', '/v2/oauth/token', partner, { grant_type: 'client_credentials', client_credentials_data: { scope } });
    const exchanged = await api(base, 'POST', '/v2/oauth/token', partner, {
      grant_type: EXCHANGE,
      token_exchange_data: { subject_token: (machine.body.data as { access_token: string }).access_token, subject_token_type: MACHINE, requested_subject: String(accountId), scope },
    });
    return (exchanged.body.data as { access_token: string }).access_token;
  };
  /** A stream's status and first bytes, over HTTP; the connection is then dropped. */
  const opened = async (route: Route, token: string) => {
    const res = await fetch(`${base}${route.url}`, { headers: { authorization: `Bearer ${token}` } });
    const body = res.status === 200 ? '' : await res.text();
    if (res.status === 200) await res.body?.cancel();
    return { statusCode: res.status, body };
  };
  const send = (route: Route, token: string) =>
    route.streams
      ? opened(route, token)
      : t.gateway.app.inject({ method: route.method as 'GET', url: route.url, headers: { authorization: `Bearer ${token}` }, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }) });

  beforeAll(async () => {
    ({ t, base } = await startPartnerGateway(clock));
    const created = await api(base, 'POST', '/v2/accounts', partner, { name: 'Scoped Ltd', lang: 'en', currency: 'EUR', country: 'EU', timezone: 3 });
    const accountId = (created.body.data as { account: { account_id: number } }).account.account_id;
    tokens.transport = await accessToken(accountId, 'transport');
    tokens.crm = await accessToken(accountId, 'crm');
  });
  afterAll(() => t.close());

  it('walks every /v2 route with each single-scope token: a route needing the other scope refuses it with 403', async () => {
    const routes = (await documentedRoutes(t)).filter((r) => r.pattern.startsWith('/v2/') && !/^\/v2\/(oauth|accounts)(\/|$)/.test(r.pattern));
    expect(routes.some((r) => r.pattern.startsWith('/v2/sandbox/'))).toBe(true);
    const namingNoScope = routes.filter((r) => scopesOfRoute(r.pattern).length === 0 && !unscoped(r.pattern)).map((r) => `${r.method} ${r.pattern}`);
    expect(namingNoScope).toEqual([]);
    for (const route of routes) {
      const needs = scopesOfRoute(route.pattern);
      for (const scope of ['transport', 'crm'] as const) {
        const res = await send(route, tokens[scope]);
        const refused = needs.some((s) => s !== scope);
        expect(lacksScope(res), `${route.method} ${route.pattern} with a ${scope} token: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(refused);
      }
    }
  });

  it('refuses a crm token the connect frame and a transport token the sandbox chat history', async () => {
    const link = await api(base, 'POST', '/v2/iframe-links/channels', `Bearer ${tokens.crm}`, {});
    expect([link.status, link.body.error]).toEqual([403, 'FORBIDDEN']);
    const history = await api(base, 'GET', `/v2/sandbox/channels/${SOME_ID}/chats/telegram/1001/messages`, `Bearer ${tokens.transport}`);
    expect([history.status, history.body.error]).toEqual([403, 'FORBIDDEN']);
    expect((await api(base, 'GET', `/v2/sandbox/channels/${SOME_ID}/chats/telegram/1001/messages`, `Bearer ${tokens.crm}`)).status).not.toBe(403);
  });

  it('holds a frame session to the scopes of the token that made its link, on every /bff route', async () => {
    const bffRoutes = (await documentedRoutes(t)).filter((r) => r.pattern.startsWith('/bff/') && !r.pattern.startsWith('/bff/session'));
    expect(bffRoutes.length).toBeGreaterThan(10);
    // The chat frame of a crm token: its session keeps crm alone, and the scope is checked before the frame's kind.
    const session = await exchangeLink((await createLink(t, tokens.crm, 'chats', { user: { id: 'u1' }, scope: 'global' })).link);
    expect((await t.gateway.store.embedSessions.get(parseSessionToken(session)!.id))?.scopes).toEqual(['crm']);
    for (const route of bffRoutes) {
      const needs = scopesOfFrameRoute(route.method, route.pattern);
      const res = await send(route, session);
      expect(lacksScope(res), `${route.method} ${route.pattern}: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(needs.includes('transport'));
    }
  });

  async function exchangeLink(link: string): Promise<string> {
    const res = await t.call('POST', '/bff/session', { body: { link } });
    expect(res.statusCode).toBe(201);
    return (res.json().data as { token: string }).token;
  }
});
