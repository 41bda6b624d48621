import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_LIVED_MS } from '../testing/graph-emulator.ts';
import { ANNA, CREDENTIALS, OLEG, PAGE, USER_TOKEN, connectInstagramChannel, startInstagramSetup, type InstagramSetup } from '../testing/instagram-fixture.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** The user token a CRM gives is the login's, short-lived: the page token kept must not die with it. */
describe(`live instagram: the page token outlives the user token given (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: InstagramSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startInstagramSetup({ clock });
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.graph.close();
  });

  const connect = (credentials: Record<string, string>) => s.t.call('POST', '/v2/channels', { token: s.token, body: { transport: 'instAPI', credentials } });
  const channelCount = async () => (await s.t.call('GET', '/v2/channels', { token: s.token })).json().data.length as number;

  it('keeps the page token derived from a long-lived exchange of the user’s, which still sends and reads profiles hours later', async () => {
    channelId = await connectInstagramChannel(s);
    const { rows } = await sql<{ credentials: string }>`select credentials from channels where id = ${channelId}`.execute(s.t.gateway.database.db);
    expect(s.t.gateway.channels.cipher.open(rows[0]!.credentials)).toMatchObject({ page_token: PAGE.token });
    expect((await s.graph.customerWrites(PAGE.instagram.id, ANNA.igsid, { text: 'Hi!' })).status).toBe(200);

    // The user token given has expired since (an hour); the page's token has not.
    clock.advance(SHORT_LIVED_MS * 3);
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'instagram', chat_id: ANNA.username }, text: 'Still here' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await settled(s.t, (res.json().data as { request_id: string }).request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    // A new customer's profile is read with the page's token too.
    expect((await s.graph.customerWrites(PAGE.instagram.id, OLEG.igsid, { text: 'Hello' })).status).toBe(200);
    const chats = await sql<{ chat_id: string }>`select chat_id from chats where channel_id = ${channelId}`.execute(s.t.gateway.database.db);
    expect(chats.rows.map((r) => r.chat_id).sort()).toEqual([ANNA.username, OLEG.username]);
    expect((await s.t.call('GET', `/v2/channels/${channelId}`, { token: s.token })).json().data[0]).toMatchObject({ status: 'active' });
  });

  it('refuses a user token Meta no longer exchanges (expired) by its field, and stores nothing', async () => {
    const before = await channelCount();
    const res = await connect(CREDENTIALS);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'credentials.user_token', message: 'was not accepted by Meta' }] } });
    expect(s.graph.calls.at(-1)).toMatchObject({ path: '/oauth/access_token', query: { fb_exchange_token: USER_TOKEN } });
    expect(await channelCount()).toBe(before);
  });

  it('answers 503 when Meta fails the exchange, or refuses the app rather than the token', async () => {
    const fresh = `EAAGfresh${'f'.repeat(40)}`;
    s.graph.addUser(fresh, { permissions: ['instagram_basic', 'instagram_manage_messages', 'pages_manage_metadata'], pages: [PAGE.id] });
    const before = await channelCount();
    s.graph.failNext('GET /oauth/access_token', 1, { status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.' });
    expect((await connect({ ...CREDENTIALS, user_token: fresh })).statusCode).toBe(503);
    s.graph.failNext('GET /oauth/access_token', 1, { code: 1, message: 'Error validating client secret.' });
    const misconfigured = await connect({ ...CREDENTIALS, user_token: fresh });
    expect(misconfigured.statusCode).toBe(503);
    expect(misconfigured.json().description).toContain('Error validating client secret.');
    expect(await channelCount()).toBe(before);
    // Once Meta answers, the same token connects.
    expect((await connect({ ...CREDENTIALS, user_token: fresh })).statusCode).toBe(201);
  });
});
