import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatPage } from '../../contract/bff-chats.ts';
import { channelClient } from '../testing/channel-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';

/** Contacts, deals and pipelines sent as the service's clients send them, and what the chat frame makes of them. */
describe(`CRM contacts, deals and pipelines (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let telegram: string;

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    telegram = await activeChannel(t, channelClient(t, a.token), 'telegram');
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.call(method, url, { token: a.token, body });
    return { status: res.statusCode, body: res.json() };
  };
  const contact = {
    id: 'c-1',
    responsible_user_id: 'u-1',
    name: 'Bob Buyer',
    contact_data: [
      { chat_type: 'telegram', chat_id: '5550001', username: 'bob' },
      { chat_type: 'whatsapp', chat_id: '79001112233' },
    ],
    uri: 'https://crm.example/contacts/1',
  };

  it('keeps contacts with several chat handles: POST, PATCH, GET, GET one, DELETE, bulk_delete', async () => {
    const created = await call('POST', '/v2/contacts', { contacts: [contact, { id: 'c-2', name: 'Second', contact_data: [{ chat_type: 'max', phone: '+7 900 000-00-02' }] }] });
    expect(created.status).toBe(201);
    expect(created.body.data[0]).toEqual(contact);
    expect(created.body.data[1]).toEqual({ id: 'c-2', responsible_user_id: null, name: 'Second', contact_data: [{ chat_type: 'max', phone: '79000000002' }], uri: null });
    expect((await call('PATCH', '/v2/contacts', { contacts: [{ ...contact, name: 'Bob B.' }] })).body.data[0].name).toBe('Bob B.');
    expect((await call('GET', '/v2/contacts/c-1')).body.data).toEqual({ ...contact, name: 'Bob B.' });
    expect((await call('GET', '/v2/contacts')).body.data.map((c: { id: string }) => c.id)).toEqual(['c-1', 'c-2']);
    expect((await call('GET', '/v2/contacts?offset=1&limit=1')).body.data.map((c: { id: string }) => c.id)).toEqual(['c-2']);
    expect((await call('GET', '/v2/contacts/nobody')).body.error).toBe('CONTACT_NOT_FOUND');

    const bad = await call('POST', '/v2/contacts', { contacts: [{ id: 'c-3', name: 'No handle', contact_data: [{ chat_type: 'whatsapp' }] }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_CONTACT_DATA');
    expect((await call('POST', '/v2/contacts', { contacts: [{ id: 'x'.repeat(101), name: 'n', contact_data: [] }] })).body.error).toBe('INVALID_CONTACT_DATA');
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `m${i}`, name: 'M', contact_data: [] }));
    expect(await call('POST', '/v2/contacts', { contacts: many })).toMatchObject({ status: 403, body: { error: 'TOO_MANY_ENTITIES' } });
    expect(await call('PATCH', '/v2/contacts/bulk_delete', many.map((m) => m.id))).toMatchObject({ status: 403, body: { error: 'TOO_MANY_ENTITIES' } });

    expect((await call('PATCH', '/v2/contacts/bulk_delete', ['c-2', 'unknown'])).status).toBe(200);
    expect((await call('GET', '/v2/contacts/c-2')).status).toBe(404);
    await call('POST', '/v2/contacts', { contacts: [{ id: 'c-9', name: 'Nine', contact_data: [] }] });
    expect((await call('DELETE', '/v2/contacts/c-9')).status).toBe(200);
    expect((await call('GET', '/v2/contacts')).body.data.map((c: { id: string }) => c.id)).toEqual(['c-1']);
  });

  it('keeps the earlier chat names working beside contacts', async () => {
    expect((await call('POST', '/v2/contacts', { data: [{ chat_type: 'viber', chat_id: '380500000009', name: 'Old Shape' }] })).status).toBe(201);
    const names = await call('GET', '/v2/contacts?view=names');
    expect(names.body.data).toContainEqual({ chat_type: 'viber', chat_id: '380500000009', name: 'Old Shape', cursor: 'viber:chat_id:380500000009' });
    // A contact's handles name its chats as well.
    expect(names.body.data).toContainEqual(expect.objectContaining({ chat_type: 'telegram', chat_id: '5550001', name: 'Bob B.' }));
    expect((await call('DELETE', '/v2/contacts', { data: [{ chat_type: 'viber', chat_id: '380500000009' }] })).status).toBe(200);
  });

  it('keeps deals with contacts, a responsible user and a closed flag, and pipelines', async () => {
    const deal = { id: 'd-1', responsible_user_id: 'u-1', name: 'First order', uri: 'https://crm.example/deals/1', contacts: ['c-1'], closed: false };
    const created = await call('POST', '/v2/deals', { deals: [deal, { id: 'd-2', name: 'Won', contacts: ['c-1'], closed: true }] });
    expect(created.status).toBe(201);
    expect(created.body.data[0]).toEqual(deal);
    expect((await call('GET', '/v2/deals/d-2')).body.data).toEqual({ id: 'd-2', responsible_user_id: null, name: 'Won', uri: null, contacts: ['c-1'], closed: true });
    expect((await call('PATCH', '/v2/deals', { deals: [{ ...deal, name: 'First order (paid)' }] })).status).toBe(200);
    expect((await call('GET', '/v2/deals')).body.data.map((d: { id: string }) => d.id)).toEqual(['d-1', 'd-2']);
    expect((await call('POST', '/v2/deals', { deals: [{ id: 'd-3', name: 'n'.repeat(201) }] })).body.error).toBe('INVALID_DEAL_DATA');
    expect((await call('GET', '/v2/deals/none')).body.error).toBe('DEAL_NOT_FOUND');
    await call('POST', '/v2/deals', { deals: [{ id: 'd-4', name: 'Gone', contacts: [] }] });
    expect((await call('PATCH', '/v2/deals/bulk_delete', ['d-4'])).status).toBe(200);
    expect((await call('DELETE', '/v2/deals/d-4')).status).toBe(200);
    expect((await call('GET', '/v2/deals/d-4')).status).toBe(404);

    const pipelines = await call('POST', '/v2/pipelines', {
      pipelines: [{ id: 'p-1', name: 'Sales', stages: [{ id: 's-1', name: 'New' }, { id: 's-2', name: 'Won' }] }, { id: 'p-2', name: 'Support' }],
    });
    expect(pipelines).toMatchObject({ status: 201, body: { data: { pipelines_created: 2, stages_created: 2 } } });
    expect((await call('GET', '/v2/pipelines')).body.data).toEqual([
      { id: 'p-1', name: 'Sales', stages: [{ id: 's-1', name: 'New' }, { id: 's-2', name: 'Won' }] },
      { id: 'p-2', name: 'Support', stages: [] },
    ]);
    expect((await call('POST', '/v2/pipelines', { pipelines: [{ id: 'p-3', name: 'Empty', stages: [] }] })).body.error).toBe('INVALID_PIPELINE_DATA');
    // Renamed without stages, a pipeline keeps its stages.
    expect((await call('POST', '/v2/pipelines', { pipelines: [{ id: 'p-1', name: 'Sales 2026' }] })).body.data).toEqual({ pipelines_created: 1, stages_created: 0 });
    expect((await call('GET', '/v2/pipelines')).body.data[0]).toEqual({ id: 'p-1', name: 'Sales 2026', stages: [{ id: 's-1', name: 'New' }, { id: 's-2', name: 'Won' }] });
  });

  it("gives the chat frame a chat's contact and open deals, a card of a contact's chats, and the CRM's create events", async () => {
    const inbound = await t.call('POST', `/v2/sandbox/channels/${telegram}/inbound`, { token: a.token, body: { chat_type: 'telegram', chat_id: '5550001', name: 'Bob', text: 'hi' } });
    expect(inbound.statusCode).toBe(201);
    const card = await openFrame(t, a.token, 'chats', { user_id: 'u-1', scope: 'card', contact_id: 'c-1' } as never);
    const session = (await t.call('GET', '/bff/session', { token: card })).json().data;
    expect(session.chats).toEqual([{ chat_type: 'telegram', chat_id: '5550001' }, { chat_type: 'whatsapp', chat_id: '79001112233' }]);
    const chats = (await t.call('GET', '/bff/chats', { token: card })).json().data as ChatPage;
    expect(chats.chats.map((c) => c.chat_id)).toEqual(['5550001']);
    const chatRef = chats.chats[0]!.chat_ref;

    const crm = await t.call('GET', `/bff/chats/${chatRef}/crm`, { token: card });
    expect(crm.statusCode).toBe(200);
    expect(crm.json().data.contact).toMatchObject({ id: 'c-1', name: 'Bob B.' });
    expect(crm.json().data.deals.map((d: { id: string }) => d.id)).toEqual(['d-1']);

    for (const kind of ['contact', 'deal']) {
      const asked = await t.call('POST', `/bff/crm/${kind}s`, { token: card, body: { chat_ref: chatRef, name: 'Bob from the frame' } });
      expect(asked.statusCode).toBe(201);
      expect(asked.json().data.event).toBe(`crm_entities.${kind}_add`);
      const recorded = await t.gateway.store.events.get(asked.json().data.event_id);
      expect(recorded).toMatchObject({
        accountId: a.accountId,
        name: `crm_entities.${kind}_add`,
        payload: { user_id: 'u-1', channel_id: telegram, chat_type: 'telegram', chat_id: '5550001', name: 'Bob from the frame', ...(kind === 'deal' ? { contact_id: 'c-1' } : {}) },
      });
    }
    const global = await openFrame(t, a.token, 'chats', { user_id: 'u-1', scope: 'card', chats: [{ chat_type: 'viber', chat_id: '380500000001' }] } as never);
    expect((await t.call('GET', `/bff/chats/${chatRef}/crm`, { token: global })).statusCode).toBe(404);
  });
});
