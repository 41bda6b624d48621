import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUICK_REPLIES } from '../../contract/bff-quick-replies.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

interface Reply {
  id: string;
  shortcut: string;
  text: string;
}

describe(`quick replies in the chat frame (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let channel: string;

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    channel = await activeChannel(t, channelClient(t, a.token), 'whatsapp');
  });
  afterAll(() => t.close());

  const frame = (account: { token: string }, userId: string) => openFrame(t, account.token, 'chats', { user: { id: userId }, scope: 'global' });
  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token, body });
  const listed = async (token: string) => (await call(token, 'GET', '/bff/quick-replies')).json().data as { replies: Reply[]; may_manage: boolean; max: number };

  it('adds, lists in shortcut order, changes and deletes an account’s replies, one shortcut per account whatever its case', async () => {
    const token = await frame(a, 'agent-1');
    const hello = await call(token, 'POST', '/bff/quick-replies', { shortcut: 'hello', text: 'Hello! How can I help?' });
    expect(hello.statusCode, hello.body).toBe(201);
    const added = hello.json().data as Reply;
    expect((await call(token, 'POST', '/bff/quick-replies', { shortcut: 'address', text: 'We are at 1 Main St.' })).statusCode).toBe(201);
    expect(await listed(token)).toMatchObject({ replies: [{ shortcut: 'address' }, { shortcut: 'hello' }], may_manage: true, max: MAX_QUICK_REPLIES });

    const again = await call(token, 'POST', '/bff/quick-replies', { shortcut: 'Hello', text: 'Hi' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'VALIDATION_ERROR', data: { fields: [{ field: 'body.shortcut' }] } });

    const changed = await call(token, 'PUT', `/bff/quick-replies/${added.id}`, { shortcut: 'hi', text: 'Hi there!' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ id: added.id, shortcut: 'hi', text: 'Hi there!' });
    // Keeping its own shortcut in another case is not a clash with itself.
    expect((await call(token, 'PUT', `/bff/quick-replies/${added.id}`, { shortcut: 'Hi', text: 'Hi there!' })).statusCode).toBe(200);
    expect((await call(token, 'PUT', `/bff/quick-replies/${added.id}`, { shortcut: 'ADDRESS', text: 'x' })).statusCode).toBe(400);

    expect((await call(token, 'DELETE', `/bff/quick-replies/${added.id}`)).statusCode).toBe(204);
    expect((await call(token, 'DELETE', `/bff/quick-replies/${added.id}`)).json().error).toBe('NOT_FOUND');
    expect((await listed(token)).replies.map((r) => r.shortcut)).toEqual(['address']);
  });

  it('refuses what is malformed or too large, with the field named', async () => {
    const token = await frame(a, 'agent-1');
    for (const body of [
      { shortcut: '', text: 'x' },
      { shortcut: 'two words', text: 'x' },
      { shortcut: 'a/b', text: 'x' },
      { shortcut: 'x'.repeat(33), text: 'x' },
      { shortcut: 'ok', text: '   ' },
      { shortcut: 'ok', text: 'x'.repeat(4097) },
      { shortcut: 'ok', text: 'x', extra: true },
    ]) {
      const res = await call(token, 'POST', '/bff/quick-replies', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('VALIDATION_ERROR');
    }
    expect((await call(token, 'PUT', '/bff/quick-replies/not-an-id', { shortcut: 'ok', text: 'x' })).statusCode).toBe(400);
  });

  it('keeps each account’s replies to itself', async () => {
    const mine = await frame(a, 'agent-1');
    const [address] = (await listed(mine)).replies;
    const theirs = await frame(b, 'agent-1');
    expect((await listed(theirs)).replies).toEqual([]);
    // Another account's id is not found, to read, change or delete; the same shortcut is free there.
    expect((await call(theirs, 'PUT', `/bff/quick-replies/${address!.id}`, { shortcut: 'stolen', text: 'x' })).json().error).toBe('NOT_FOUND');
    expect((await call(theirs, 'DELETE', `/bff/quick-replies/${address!.id}`)).json().error).toBe('NOT_FOUND');
    expect((await call(theirs, 'POST', '/bff/quick-replies', { shortcut: 'address', text: 'Elsewhere' })).statusCode).toBe(201);
    expect((await listed(mine)).replies).toEqual([address]);
  });

  it('lets a manager change them once the account sets roles; a seller and an auditor only read them', async () => {
    const roles = [
      { channel_id: channel, user_id: 'boss', role: 'manager', allow_get_new_clients: false },
      { channel_id: channel, user_id: 'sam', role: 'seller', allow_get_new_clients: true },
      { channel_id: channel, user_id: 'qa', role: 'auditor', allow_get_new_clients: false },
    ];
    expect((await call(a.token, 'PATCH', '/v2/settings', { user_roles: roles })).statusCode).toBe(200);
    const boss = await frame(a, 'boss');
    const [address] = (await listed(boss)).replies;
    expect((await listed(boss)).may_manage).toBe(true);
    for (const user of ['sam', 'qa']) {
      const token = await frame(a, user);
      expect(await listed(token)).toMatchObject({ may_manage: false, replies: [{ shortcut: 'address' }] });
      expect((await call(token, 'POST', '/bff/quick-replies', { shortcut: 'mine', text: 'x' })).json().error).toBe('FORBIDDEN');
      expect((await call(token, 'PUT', `/bff/quick-replies/${address!.id}`, { shortcut: 'address', text: 'x' })).json().error).toBe('FORBIDDEN');
      expect((await call(token, 'DELETE', `/bff/quick-replies/${address!.id}`)).json().error).toBe('FORBIDDEN');
    }
    expect((await call(boss, 'PUT', `/bff/quick-replies/${address!.id}`, { shortcut: 'address', text: 'We moved: 2 Main St.' })).statusCode).toBe(200);
    expect((await call(a.token, 'PATCH', '/v2/settings', { user_roles: [] })).statusCode).toBe(200);
  });

  it(`keeps at most ${MAX_QUICK_REPLIES} per account`, async () => {
    const token = await frame(b, 'agent-1');
    const have = (await listed(token)).replies.length;
    // The account fills up to one short of the limit as stored; the last one goes through the route.
    const at = new Date();
    const rows = Array.from({ length: MAX_QUICK_REPLIES - have - 1 }, (_, i) => ({ account_id: b.accountId, shortcut: `r${i}`, text: `Reply ${i}`, created_at: at, updated_at: at }));
    await t.gateway.database.db.insertInto('quick_replies').values(rows).execute();
    expect((await call(token, 'POST', '/bff/quick-replies', { shortcut: 'last', text: 'The last one' })).statusCode).toBe(201);
    const over = await call(token, 'POST', '/bff/quick-replies', { shortcut: 'one-more', text: 'x' });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'TOO_MANY_ENTITIES', data: { max: MAX_QUICK_REPLIES } });
  });
});
