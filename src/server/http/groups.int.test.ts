import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`group chats in the sandbox (${databaseKind()})`, () => {
  let t: TestGateway;
  let token: string;
  let channel: string;
  let stream: ReturnType<typeof eventStream>;

  beforeAll(async () => {
    t = await startTestGateway();
    const account = await t.newAccount();
    token = account.token;
    stream = eventStream(t.gateway.database, account.accountId);
    channel = await activeChannel(t, channelClient(t, token), 'whatsapp');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  it('creates a group, members join, leave and are renamed, the group is renamed; messages reach it', async () => {
    const created = await t.call('POST', `/v2/sandbox/channels/${channel}/groups`, { token, body: { chat_type: 'whatsgroup', name: 'Team', members: [{ name: 'Ann' }, { name: 'Bob' }] } });
    expect(created.statusCode).toBe(201);
    const group = created.json().data;
    expect(group).toMatchObject({ chat_type: 'whatsgroup', name: 'Team', avatar_url: null });
    expect(group.members.map((m: { name: string; status: string }) => [m.name, m.status])).toEqual(expect.arrayContaining([['Ann', 'in_group'], ['Bob', 'in_group']]));
    const events = await stream.since();
    expect(events.map((e) => e.name)).toEqual(['group_chat.memberships_update', 'group_chat.update']);
    expect(events[1]!.payload).toEqual({ group_id: group.group_id, name: 'Team', avatar_url: null });

    const bob = group.members.find((m: { name: string }) => m.name === 'Bob');
    const change = await t.call('POST', `/v2/sandbox/channels/${channel}/groups/${group.group_id}/members`, {
      token,
      body: { members: [{ group_member_id: bob.group_member_id, status: 'deleted' }, { name: 'Cid', status: 'in_group' }] },
    });
    expect(change.statusCode).toBe(200);
    const [membership] = await stream.since();
    expect(membership).toMatchObject({ name: 'group_chat.memberships_update', payload: { group_id: group.group_id } });
    expect((membership!.payload.members as { name: string; status: string }[]).map((m) => [m.name, m.status])).toEqual([
      ['Bob', 'deleted'],
      ['Cid', 'in_group'],
    ]);
    const rename = await t.call('POST', `/v2/sandbox/channels/${channel}/groups/${group.group_id}/members`, {
      token,
      body: { members: [{ group_member_id: bob.group_member_id, name: 'Robert', status: 'deleted' }] },
    });
    expect(rename.json().data.members.find((m: { group_member_id: string }) => m.group_member_id === bob.group_member_id).name).toBe('Robert');
    expect(await stream.names()).toEqual(['group_chat.memberships_update']);

    const renamed = await t.call('PATCH', `/v2/sandbox/channels/${channel}/groups/${group.group_id}`, { token, body: { name: 'Team A', avatar_url: 'https://img.test/a.png' } });
    expect(renamed.statusCode).toBe(200);
    expect(await stream.since()).toEqual([{ name: 'group_chat.update', payload: { group_id: group.group_id, name: 'Team A', avatar_url: 'https://img.test/a.png' } }]);

    const send = await t.call('POST', '/v2/messages', { token, body: { channel_id: channel, recipient: { chat_type: 'whatsgroup', chat_id: group.group_id }, text: 'hello team' } });
    expect((await settled(t, send.json().data.request_id)).status).toBe('delivered');
    const unknown = await t.call('POST', '/v2/messages', { token, body: { channel_id: channel, recipient: { chat_type: 'whatsgroup', chat_id: 'g404' }, text: 'x' } });
    expect(await settled(t, unknown.json().data.request_id)).toMatchObject({ status: 'failed', reason: 'channel_private' });
  });

  it('refuses a group type of another transport, an unknown group and a stranger as member', async () => {
    expect((await t.call('POST', `/v2/sandbox/channels/${channel}/groups`, { token, body: { chat_type: 'telegroup', name: 'x' } })).statusCode).toBe(400);
    expect((await t.call('PATCH', `/v2/sandbox/channels/${channel}/groups/g1`, { token, body: { name: 'x' } })).json().error).toBe('CHAT_NOT_FOUND');
    const group = (await t.call('POST', `/v2/sandbox/channels/${channel}/groups`, { token, body: { chat_type: 'whatsgroup', name: 'y' } })).json().data;
    const res = await t.call('POST', `/v2/sandbox/channels/${channel}/groups/${group.group_id}/members`, { token, body: { members: [{ group_member_id: 'm1', status: 'deleted' }] } });
    expect(res.json().data.fields).toEqual([{ field: 'members.0.group_member_id', message: 'is not a member of this group' }]);
  });
});
