import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { openFrame } from '../testing/frames.ts';
import { ANNA, APP_ID, APP_SECRET, CREDENTIALS, PAGE, PERMISSIONS, USER_TOKEN, connectInstagramChannel, startInstagramSetup, type InstagramSetup } from '../testing/instagram-fixture.ts';
import { databaseKind } from '../testing/test-database.ts';

const OTHER_PAGE = {
  id: '104857600000002',
  name: 'Acme Outlet page',
  token: `EAAGpage${'q'.repeat(40)}`,
  instagram: { id: '17841400000000002', username: 'acme.outlet', name: 'Acme Outlet' },
};

const METRICS_TOKEN = 'metrics-token-of-the-instagram-test-01';

describe(`live instagram: connecting, and Meta's webhook address (${databaseKind()})`, () => {
  let s: InstagramSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startInstagramSetup({ env: { METRICS_TOKEN } });
    s.graph.addPage(OTHER_PAGE);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.graph.close();
  });

  const connect = (credentials: Record<string, string>) => s.t.call('POST', '/v2/channels', { token: s.token, body: { transport: 'instAPI', credentials } });
  const channelCount = async () => (await s.t.call('GET', '/v2/channels', { token: s.token })).json().data.length as number;

  it('connects an account: Meta checks the four credentials, the page subscribes the app, and the page’s token is kept instead of the user’s', async () => {
    channelId = await connectInstagramChannel(s);
    const channel = (await s.t.call('GET', `/v2/channels/${channelId}`, { token: s.token })).json().data[0];
    expect(channel).toMatchObject({ status: 'active', transport: 'instAPI', username: 'acme.shop', name: 'Acme Shop', messenger_id: PAGE.instagram.id });
    expect(JSON.stringify(channel)).not.toMatch(/EAAG/);
    expect(s.graph.subscribedFields(PAGE.id)).toEqual(['messages', 'messaging_postbacks', 'message_reads', 'message_reactions']);
    // Every call names the one pinned version, carries its token in the header only, and proves it is the app's.
    expect(new Set(s.graph.calls.map((c) => c.version))).toEqual(new Set(['v24.0']));
    expect(s.graph.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /oauth/access_token', 'GET /me/permissions', `GET /${PAGE.id}`, `POST /${PAGE.id}/subscribed_apps`]);
    // The user's token is exchanged for a long-lived one as Meta documents it, in the query with the app's id and
    // secret; every other call carries its token in the header only.
    const [exchange, ...others] = s.graph.calls;
    expect(exchange!.query).toEqual({ grant_type: 'fb_exchange_token', client_id: APP_ID, client_secret: APP_SECRET, fb_exchange_token: USER_TOKEN });
    expect(exchange!.token).toBe('');
    expect(others.every((c) => !JSON.stringify(c.query).includes('EAAG') && !c.path.includes('EAAG'))).toBe(true);
    const { rows } = await sql<{ credentials: string }>`select credentials from channels where id = ${channelId}`.execute(s.t.gateway.database.db);
    expect(rows[0]!.credentials).not.toContain('EAAG');
    expect(s.t.gateway.channels.cipher.open(rows[0]!.credentials)).toEqual({ username: 'acme.shop', page_id: PAGE.id, inst_id: PAGE.instagram.id, page_token: PAGE.token });
  });

  it('refuses each credential Meta does not take by its field, and stores nothing', async () => {
    const before = await channelCount();
    s.graph.addUser(`EAAGweak${'w'.repeat(40)}`, { permissions: ['pages_show_list'], pages: [PAGE.id] });
    const refusals: [Record<string, string>, string, string][] = [
      [{ username: '@acme.shop' }, 'username', 'must not contain @'],
      [{ page_id: 'acme' }, 'page_id', 'must be digits only'],
      [{ inst_id: '1784-14' }, 'inst_id', 'must be digits only'],
      [{ user_token: `EAAGgone${'g'.repeat(40)}` }, 'user_token', 'was not accepted by Meta'],
      [{ user_token: 'short' }, 'user_token', 'was not accepted by Meta'],
      [{ user_token: `EAAGweak${'w'.repeat(40)}` }, 'user_token', 'lacks the permissions instagram_basic, instagram_manage_messages and pages_manage_metadata'],
      [{ page_id: OTHER_PAGE.id }, 'page_id', 'is not a Facebook page this user token manages'],
      [{ inst_id: OTHER_PAGE.instagram.id }, 'inst_id', 'is not the Instagram account linked to this page'],
      [{ username: 'acme.outlet' }, 'username', 'is not the name of this Instagram account'],
    ];
    for (const [change, field, message] of refusals) {
      const res = await connect({ ...CREDENTIALS, ...change });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: `credentials.${field}`, message }] } });
    }
    // The name is Instagram's, compared without case.
    expect((await connect({ ...CREDENTIALS, username: 'ACME.Shop' })).statusCode).toBe(201);
    expect(await channelCount()).toBe(before + 1);
  });

  it('answers 503 while Meta fails or is out of reach, and stores nothing', async () => {
    const before = await channelCount();
    s.graph.failNext('GET /me/permissions', 1, { status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.' });
    const failing = await connect(CREDENTIALS);
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toMatchObject({ error: 'SERVICE_UNAVAILABLE' });
    s.graph.failNext(`POST /${PAGE.id}/subscribed_apps`, 1, { status: 500, code: 1, message: 'An unknown error occurred' });
    expect((await connect(CREDENTIALS)).statusCode).toBe(503);
    expect(await channelCount()).toBe(before);
  });

  it('offers instAPI in the connect frame', async () => {
    const frame = await openFrame(s.t, s.token, 'channels', {});
    const offered = (await s.t.call('GET', '/bff/transports', { token: frame })).json().data as { transport: string; creatable: boolean }[];
    expect(offered.filter((x) => x.creatable).map((x) => x.transport).sort()).toEqual(['instAPI', 'maxbot', 'telegram']);
  });

  it('answers Meta’s check of the callback address with its challenge, only with the app’s verify token', async () => {
    expect(await s.graph.webhooks.verify()).toEqual({ status: 200, body: '1158201444' });
    expect((await s.graph.webhooks.verify('another-verify-token')).status).toBe(403);
    expect((await fetch(`${s.base}/hooks/instagram?hub.mode=subscribe&hub.challenge=1`)).status).toBe(403);
    expect((await fetch(`${s.base}/hooks/whatsapp?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(404);
  });

  it('turns away a post without the app’s signature before reading it, and drops what is not for a channel here', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const event = { sender: { id: ANNA.igsid }, recipient: { id: PAGE.instagram.id }, timestamp: Date.now(), message: { mid: 'bWlkLmZvcmdlZA', text: 'forged' } };
    const body = { object: 'instagram', entry: [{ id: PAGE.instagram.id, time: Date.now(), messaging: [event] }] };
    expect(await s.graph.webhooks.post(body, { signature: null })).toBe(401);
    expect(await s.graph.webhooks.post(body, { signature: `sha256=${'0'.repeat(64)}` })).toBe(401);
    expect(await s.graph.webhooks.post(body, { signature: 'sha1=abc' })).toBe(401);
    // Signed by the app, but no channel has the account, or nothing in it is messaging: taken and dropped.
    expect(await s.graph.webhooks.post({ ...body, entry: [{ ...body.entry[0], id: '17841499999999999' }] })).toBe(200);
    expect(await s.graph.webhooks.post({ object: 'page', entry: body.entry })).toBe(200);
    expect(await s.graph.webhooks.post({ object: 'instagram', entry: [{ id: PAGE.instagram.id, time: 1, changes: [{ field: 'comments', value: {} }] }] })).toBe(200);
    expect(await s.graph.webhooks.post(['not', 'a', 'webhook'])).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect(s.graph.calls.some((c) => c.path === `/${ANNA.igsid}`)).toBe(false);
    // The same post, signed: recorded.
    expect(await s.graph.webhooks.post(body)).toBe(200);
    expect((await stream.since()).map((e) => e.name)).toEqual(['message.add']);
    const raw = JSON.stringify(body);
    const signed = await fetch(`${s.base}/hooks/instagram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${(await import('node:crypto')).createHmac('sha256', APP_SECRET).update(`${raw} `).digest('hex')}` },
      body: raw,
    });
    // Signed over other bytes (one space more): refused, though it says the same.
    expect(signed.status).toBe(401);
    const metrics = (await s.t.call('GET', '/metrics', { token: METRICS_TOKEN })).body;
    expect(metrics).toMatch(/^gateway_messenger_updates_total\{transport="instAPI",outcome="unauthorized"\} 4$/m);
    expect(metrics).toMatch(/^gateway_messenger_updates_total\{transport="instAPI",outcome="accepted"\} 1$/m);
  });

  it('moves the channel to another account on reinit: the page before lets the app go', async () => {
    s.graph.addUser(`EAAGboth${'b'.repeat(40)}`, { permissions: PERMISSIONS, pages: [PAGE.id, OTHER_PAGE.id] });
    const second = await connectInstagramChannel(s, { username: 'acme.outlet', page_id: OTHER_PAGE.id, inst_id: OTHER_PAGE.instagram.id, user_token: `EAAGboth${'b'.repeat(40)}` });
    expect(s.graph.subscribedFields(OTHER_PAGE.id)).not.toBeNull();
    // The first page is still another channel's (connected in the refusals test): it stays subscribed.
    const reinit = await s.t.call('POST', `/v2/channels/${channelId}/reinit`, { token: s.token, body: { credentials: { username: 'acme.outlet', page_id: OTHER_PAGE.id, inst_id: OTHER_PAGE.instagram.id, user_token: `EAAGboth${'b'.repeat(40)}` } } });
    expect(reinit.statusCode, reinit.body).toBe(200);
    expect(reinit.json().data[0]).toMatchObject({ status: 'active', username: 'acme.outlet', messenger_id: OTHER_PAGE.instagram.id });
    expect(s.graph.subscribedFields(PAGE.id)).not.toBeNull();
    // Deleting the two outlet channels lets that page go once the last one is gone (a deletion answers once Meta was told).
    expect((await s.t.call('DELETE', `/v2/channels/${second}`, { token: s.token })).statusCode).toBe(200);
    expect(s.graph.subscribedFields(OTHER_PAGE.id)).not.toBeNull();
    expect((await s.t.call('DELETE', `/v2/channels/${channelId}`, { token: s.token })).statusCode).toBe(200);
    expect(s.graph.subscribedFields(OTHER_PAGE.id)).toBeNull();
    expect(s.graph.calls.filter((c) => c.method === 'DELETE').map((c) => [c.token, c.path])).toEqual([[OTHER_PAGE.token, `/${OTHER_PAGE.id}/subscribed_apps`]]);
  });

  it('drops the events of a deleted channel’s account, answered 200 so that Meta does not give the app up', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const { status } = await s.graph.customerWrites(OTHER_PAGE.instagram.id, ANNA.igsid, { text: 'Anyone there?' });
    expect(status).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

});
