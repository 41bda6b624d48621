import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

/** `transport: "instagram"` without credentials, as the original service's clients create it, in the sandbox. */
describe(`instagram by Facebook Login in the sandbox (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let token: string;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    stream = eventStream(t.gateway.database, account.accountId);
  });
  afterAll(() => t.close());

  const get = async (id: string) => (await t.call('GET', `/v2/channels/${id}`, { token })).json().data[0] as Record<string, unknown>;

  it('answers the login’s url; the sandbox’s page completes it and the channel is an active instAPI channel', async () => {
    await stream.since();
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'instagram', credentials: {} } });
    expect(res.statusCode).toBe(201);
    const [created] = res.json().data;
    const id = created.channel_id as string;
    expect(created).toEqual({ channel_id: id, transport: 'instAPI', status: 'init', reason: null, state: expect.any(String), url: expect.stringMatching(new RegExp(`^http://localhost:8080/sandbox/authorize/${id}\\?state=`)) });
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([
      ['channel.create', { channel_id: id, timestamp: clock.now().getTime() }],
      ['channel.status_update', { channel_id: id, status: 'init', reason: null }],
    ]);
    expect(await get(id)).toMatchObject({ transport: 'instAPI', status: 'init', url: created.url });

    const page = await t.call('GET', (created.url as string).replace('http://localhost:8080', ''));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Instagram account');
    const channel = await get(id);
    expect(channel).toMatchObject({ transport: 'instAPI', status: 'active', username: expect.stringMatching(/^sandbox_\d{6}$/), messenger_id: expect.stringMatching(/^17841\d{12}$/) });
    expect(page.body).toContain(`@${channel.username as string}`);
    expect(channel.capabilities).toMatchObject({ transport: 'instAPI', chat_types: ['instagram'] });
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([['channel.status_update', { channel_id: id, status: 'active', reason: null }]]);
    // Taken once.
    expect((await t.call('GET', (created.url as string).replace('http://localhost:8080', ''))).statusCode).toBe(404);
  });

  it('reconnects by the login again on a reinit without credentials; the four fields still connect instAPI directly', async () => {
    const [created] = (await t.call('POST', '/v2/channels', { token, body: { transport: 'instagram', credentials: {} } })).json().data;
    await t.call('GET', (created.url as string).replace('http://localhost:8080', ''));
    const reinit = await t.call('POST', `/v2/channels/${created.channel_id}/reinit`, { token, body: { credentials: {} } });
    expect(reinit.statusCode).toBe(200);
    expect(await get(created.channel_id)).toMatchObject({ status: 'init', url: expect.stringContaining('/sandbox/authorize/') });
    const fields = await t.call('POST', '/v2/channels', { token, body: { transport: 'instAPI', credentials: { username: 'shop', page_id: '1', inst_id: '17841', user_token: 'EAAB' } } });
    expect(fields.json().data[0]).toMatchObject({ transport: 'instAPI', status: 'active' });
    expect(fields.json().data[0]).not.toHaveProperty('url');
  });
});
