import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`a sandbox customer edits a message they wrote (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let token: string;
  let stream: ReturnType<typeof eventStream>;
  const channels: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    const account = await t.newAccount();
    token = account.token;
    stream = eventStream(t.gateway.database, account.accountId);
    const api = channelClient(t, token);
    for (const transport of ['tgapi', 'viber']) channels[transport] = await activeChannel(t, api, transport);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  const inbound = async (transport: string, body: Record<string, unknown>) => {
    const chat = transport === 'viber' ? { chat_type: 'viber', chat_id: '380501112233' } : { chat_type: 'telegram', chat_id: '777' };
    const res = await t.call('POST', `/v2/sandbox/channels/${channels[transport]}/inbound`, { token, body: { ...chat, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    await stream.since();
    return (res.json().data as { message_id: string }).message_id;
  };
  const edit = (messageId: string, body: unknown) => t.call('POST', `/v2/sandbox/messages/${messageId}/edit`, { token, body });

  it('changes the words and sends message.edit, as a live platform’s report of an edit does, however much later', async () => {
    const id = await inbound('tgapi', { text: 'Доставка в пятницу?' });
    clock.advance(3 * 24 * 60 * 60 * 1000);
    const res = await edit(id, { text: 'Доставка в субботу?' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ message_id: id, chat_id: '777' });
    expect(await stream.since()).toEqual([
      { name: 'message.edit', payload: { message_id: id, crm_user_id: null, timestamp: clock.now().getTime(), text: 'Доставка в субботу?', old_text: 'Доставка в пятницу?' } },
    ]);
    // The same words again change nothing.
    expect((await edit(id, { text: 'Доставка в субботу?' })).statusCode).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('refuses what the customer could not edit: another transport’s, a file, an outbound or unknown message', async () => {
    const viber = await inbound('viber', { text: 'hi' });
    const file = await inbound('tgapi', { attachment: { url: 'https://files.example.com/a.jpg', mimetype: 'image/jpeg' } });
    const sent = await t.call('POST', '/v2/messages', { token, body: { channel_id: channels.tgapi, recipient: { chat_type: 'telegram', chat_id: '777' }, text: 'ours' } });
    const outbound = await settled(t, sent.json().data.request_id);
    await stream.since();
    expect((await edit(viber, { text: 'hello' })).json()).toMatchObject({ error: 'CHANNEL_INVALID_TRANSPORT_FOR_EDITING' });
    expect((await edit(file, { text: 'a caption' })).json()).toMatchObject({ error: 'CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING' });
    const refused = await edit(outbound.id, { text: 'theirs' });
    expect([refused.statusCode, refused.json().error]).toEqual([400, 'VALIDATION_ERROR']);
    expect((await edit('0b9a4c9e-51f1-4c1e-9d0e-3b7f0e1d2c3a', { text: 'x' })).statusCode).toBe(404);
    expect((await edit(viber, { text: '' })).statusCode).toBe(400);
    expect(await stream.since()).toEqual([]);
  });

  it('refuses an edit through a channel that is no longer active with 409, its status and reason, changing nothing', async () => {
    const loggedOut = await activeChannel(t, channelClient(t, token), 'tgapi');
    const res = await t.call('POST', `/v2/sandbox/channels/${loggedOut}/inbound`, { token, body: { chat_type: 'telegram', chat_id: '778', text: 'Будет изменено' } });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json().data as { message_id: string }).message_id;
    expect((await t.call('POST', `/v2/sandbox/channels/${loggedOut}/logout`, { token })).statusCode).toBe(200);
    await stream.since();
    const refused = await edit(id, { text: 'Изменено' });
    expect([refused.statusCode, refused.json()]).toEqual([409, expect.objectContaining({ error: 'CHANNEL_WRONG_STATUS', data: { status: 'disabled', reason: 'unauthorized' } })]);
    expect(await stream.since()).toEqual([]);
  });

  it('is documented under the sandbox tag', async () => {
    const doc = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/v2/sandbox/messages/{message_id}/edit'].post.tags).toEqual(['sandbox']);
  });
});
