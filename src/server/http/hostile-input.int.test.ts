import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { openFrame } from '../testing/frames.ts';
import { bodyWith, fieldOf, routesOf, stringPlaces, type OpenApiDocument, type Route } from '../testing/openapi-walk.ts';
import { databaseKind } from '../testing/test-database.ts';

/**
 * Every route of the OpenAPI document, given what the database cannot take: text it cannot store in every string
 * of every body, numbers beyond what it can count in every numeric query parameter. Each is refused with 400 in the
 * interface's error shape, naming the field, before anything is stored.
 */
describe(`hostile input on every route (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let t: TestGateway;
  let doc: OpenApiDocument;
  let clientToken: string;
  let frame: string;
  let routes: Route[];

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    clientToken = account.token;
    frame = await openFrame(t, account.token, 'chats', { user: { id: 'agent-1' }, scope: 'global' });
    doc = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    routes = routesOf(doc, (param) => (param.endsWith('account_id') ? account.accountId : param === 'date' ? '2030-01-01' : '00000000-0000-4000-8000-000000000001'));
  }, 120_000);
  afterAll(() => t.close());

  /** Partner administration takes the partner key, the frames' routes a frame session, the rest a client token. */
  const credentialFor = (path: string) => (path.startsWith('/bff/') ? frame : /^\/v2\/(accounts|oauth)\b/.test(path) ? t.partnerKey : clientToken);

  let asked = 0;
  /** One request with the route's credential, within the rate limit. */
  /** The v3 face refuses in its own words: a send's bad data is INVALID_MESSAGE_DATA, and fields are named bare. */
  const isV3 = (route: Route) => route.path.startsWith('/v3/');
  const refusedAs = (route: Route, error: string | undefined) => error === 'VALIDATION_ERROR' || (isV3(route) && typeof error === 'string' && /^INVALID_[A-Z_]+_DATA$/.test(error));
  /** Whether a v3 refusal names the field: `{fields}` for one body, `[{index, fields}]` for a bare array's items (an item itself is `item`). */
  const v3Names = (data: unknown, field: string) => {
    // v3 names a field by its own name or by the top-level field holding it (`buttonsObject` for a button's text).
    const names = new Set([field, ...field.split('.').map((segment) => (/^\d+$/.test(segment) ? 'item' : segment))]);
    const lists = Array.isArray(data) ? data.map((d: { fields?: unknown[] }) => d.fields ?? []) : [(data as { fields?: unknown[] } | undefined)?.fields ?? []];
    return lists.some((fields) => fields.some((f) => names.has(String(f))));
  };

  async function ask(route: Route, query: string, payload?: string) {
    if (++asked % 100 === 0) clock.advance(5_000);
    return t.gateway.app.inject({
      method: route.method as 'GET',
      url: `${route.url}${query}`,
      headers: { authorization: `Bearer ${credentialFor(route.path)}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  const UNSTORABLE = [
    { text: 'a\u0000b', message: 'must not contain the NUL character (U+0000)' },
    { text: 'a\uD800b', message: 'must not contain an unpaired UTF-16 surrogate' },
    { text: '\uDC00', message: 'must not contain an unpaired UTF-16 surrogate' },
  ];

  it('refuses NUL and lone surrogates in every string field of every body, naming the field', async () => {
    const wrong: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const schema = route.operation.requestBody?.content['application/json']?.schema;
      if (!schema) continue;
      for (const place of stringPlaces(doc, schema)) {
        for (const { text, message } of UNSTORABLE) {
          sent++;
          // JSON.stringify writes a lone surrogate as its `\u` escape, as a client would have to.
          const res = await ask(route, '', JSON.stringify(bodyWith(place, text)));
          const body = res.json() as { error?: string; description?: string; data?: { fields?: unknown[] } & unknown[] };
          const named = isV3(route) ? v3Names(body.data, fieldOf(place)) : body.data?.fields?.some((f) => JSON.stringify(f) === JSON.stringify({ field: fieldOf(place), message }));
          if (res.statusCode !== 400 || !refusedAs(route, body.error) || typeof body.description !== 'string' || !named) {
            wrong.push(`${route.method} ${route.path} ${fieldOf(place)} ${JSON.stringify(text)} → ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses a NUL in a form-encoded token request', async () => {
    const res = await t.gateway.app.inject({
      method: 'POST',
      url: '/v2/oauth/token',
      headers: { authorization: `Bearer ${t.partnerKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=a%00b',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'client_id', message: 'must not contain the NUL character (U+0000)' }]);
  });

  it('refuses huge, negative, fractional and exponent numbers in every numeric query parameter', async () => {
    const values = ['1e20', '1e400', '-1e400', '99999999999999999999', '-1', '1.5', '3e9', 'Infinity', 'NaN'];
    const wrong: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const numeric = (route.operation.parameters ?? []).filter((p) => p.in === 'query' && ['integer', 'number'].includes(p.schema.type as string));
      for (const param of numeric) {
        for (const value of values) {
          sent++;
          const res = await ask(route, `?${param.name}=${encodeURIComponent(value)}`);
          const body = res.json() as { error?: string; data?: { fields?: { field: string }[] } };
          const named = body.data?.fields?.some((f) => f.field === `querystring.${param.name}` || (isV3(route) && String(f) === `querystring.${param.name}`));
          if (res.statusCode !== 400 || body.error !== 'VALIDATION_ERROR' || !named) wrong.push(`${route.method} ${route.path} ${param.name}=${value} → ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  }, 60_000);
});
