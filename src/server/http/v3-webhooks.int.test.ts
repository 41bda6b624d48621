import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V3ChannelUpdate, V3CreateContact, V3CreateDeal, V3TemplateStatus, V3WebhookMessage, V3WebhookStatus } from '../../contract/v3/webhooks.ts';
import { channelClient } from '../testing/channel-client.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel, settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { v3Account } from '../testing/v3-account.ts';
import { startV3WebhookReceiver, type V3WebhookReceiver } from '../testing/v3-webhook-receiver.ts';
import { eventually } from '../testing/webhook-driver.ts';

// The v3 webhook address, as the public API's documentation and live clients describe it; every body the receiver
// gets is checked against the v3 body schema.
describe(`v3 webhooks (${databaseKind()})`, () => {
  let t: TestGateway;
  let apiKey: string;
  let sidecarKey: string;
  let crm: V3WebhookReceiver;
  const customer = { chat_type: 'whatsapp', chat_id: '79161234567' };

  beforeAll(async () => {
    t = await startTestGateway();
    ({ apiKey, sidecarKey } = await v3Account(t));
    crm = await startV3WebhookReceiver();
  });
  afterAll(async () => {
    await crm.close();
    await t.close();
  });

  const patch = (body: unknown, token = apiKey) => t.call('PATCH', '/v3/webhooks', { token, body });
  const state = async (token = apiKey) => (await t.call('GET', '/v3/webhooks', { token })).json();
  const allValid = () => expect(crm.received.filter((r) => r.invalid.length > 0).map((r) => ({ body: r.body, invalid: r.invalid }))).toEqual([]);

  it('has no address until one is set, and refuses a malformed, too long or private address with uriNotValid', async () => {
    expect(await state()).toEqual({
      webhooksUri: null,
      subscriptions: { messagesAndStatuses: false, contactsAndDealsCreation: false, channelsUpdates: false, templateStatus: false, wabaTemplatesStatus: false },
    });
    for (const webhooksUri of ['not a uri', `https://crm.example.com/${'x'.repeat(200)}`, 'https://10.1.2.3/hooks', 'ftp://crm.example.com/h']) {
      const res = await patch({ webhooksUri, subscriptions: { messagesAndStatuses: true } });
      expect(res.statusCode, webhooksUri).toBe(400);
      expect(res.json()).toMatchObject({ error: 'uriNotValid', description: 'Provided URI is not valid URI' });
    }
    expect(crm.received).toEqual([]);
  });

  it('refuses an address that does not answer the test POST with 200 (testPostNotPassed), keeping nothing', async () => {
    crm.answer(() => ({ status: 500 }));
    const res = await patch({ webhooksUri: crm.url, subscriptions: { messagesAndStatuses: true } });
    crm.answer(() => ({ status: 200 }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'testPostNotPassed', description: 'URI does not return 200 OK on test request', data: { statusCode: 500 } });
    expect(crm.received.map((r) => r.body)).toEqual([{ test: true }]);
    expect((await state()).webhooksUri).toBeNull();
  });

  it('sets the address with a sidecar key after the test POST, answers OK, and reads the switches back as booleans', async () => {
    const res = await patch(
      { webhooksUri: crm.url, subscriptions: { messagesAndStatuses: true, channelsUpdates: 'true', contactsAndDealsCreation: true, tepmplateStatus: true }, crmKey: 'crm-key-1' },
      sidecarKey,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('OK');
    expect(crm.received.at(-1)).toMatchObject({ body: { test: true }, headers: { authorization: 'Bearer crm-key-1' } });
    expect(await state(sidecarKey)).toEqual({
      webhooksUri: crm.url,
      subscriptions: { messagesAndStatuses: true, contactsAndDealsCreation: true, channelsUpdates: true, templateStatus: true, wabaTemplatesStatus: true },
    });
    // The v2 face lists only its own subscriptions.
    expect((await t.call('GET', '/v2/webhooks', { token: apiKey })).json().data).toEqual([]);
  });

  let channelId: string;

  it('tells channel changes as channelsUpdates, the QR as a PNG data URL', async () => {
    channelId = await activeChannel(t, channelClient(t, apiKey), 'whatsapp');
    const updates = await eventually(() => {
      const got = crm.of<V3ChannelUpdate>('channelsUpdates').filter((u) => u.channelId === channelId);
      return got.some((u) => u.state === 'active') ? got : undefined;
    });
    expect(updates.find((u) => u.qr)).toMatchObject({ state: 'qr', qr: expect.stringMatching(/^data:image\/png;base64,/), timestamp: expect.any(Number) });
    expect(updates.at(-1)).toMatchObject({ channelId, state: 'active' });
    allValid();
  });

  it('tells a customer’s message (isEcho false, inbound), a send’s statuses, its edit and its deletion, with the CRM’s key', async () => {
    const inbound = await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: apiKey, body: { ...customer, name: 'Anna', text: 'Where is my order?' } });
    expect(inbound.statusCode, inbound.body).toBe(201);
    const inboundId = inbound.json().data.message_id as string;
    const incoming = await eventually(() => crm.of<V3WebhookMessage>('messages').find((m) => m.messageId === inboundId));
    expect(incoming).toMatchObject({ channelId, chatType: 'whatsapp', chatId: customer.chat_id, type: 'text', isEcho: false, status: 'inbound', text: 'Where is my order?', contact: { name: 'Anna' } });

    const sent = await t.call('POST', '/v2/messages', { token: apiKey, body: { channel_id: channelId, recipient: customer, text: 'On its way', crm_user_id: 'agent-1' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const message = await settled(t, sent.json().data.request_id);
    const statuses = await eventually(() => {
      const got = crm.of<V3WebhookStatus>('statuses').filter((s) => s.messageId === message.id);
      return got.some((s) => s.status === 'delivered') ? got : undefined;
    });
    expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining(['sent', 'delivered']));
    expect(statuses[0]!.timestamp).toMatch(/Z$/);

    expect((await t.call('PATCH', `/v2/messages/${message.id}`, { token: apiKey, body: { text: 'On its way, today' } })).statusCode).toBe(200);
    const edited = await eventually(() => crm.of<V3WebhookMessage>('messages').find((m) => m.messageId === message.id && m.isEdited));
    expect(edited).toMatchObject({ chatId: customer.chat_id, isEcho: true, text: 'On its way, today', oldInfo: { oldText: 'On its way' } });
    expect((await t.call('DELETE', `/v2/messages/${message.id}`, { token: apiKey })).statusCode).toBe(200);
    const deleted = await eventually(() => crm.of<V3WebhookMessage>('messages').find((m) => m.messageId === message.id && m.isDeleted));
    expect(deleted).toMatchObject({ channelId, chatType: 'whatsapp', isDeleted: true });

    const hooks = crm.received.filter((r) => !('test' in r.body));
    expect(hooks.every((r) => r.headers.authorization === 'Bearer crm-key-1' && r.headers['webhook-signature'] === undefined)).toBe(true);
    expect(hooks.every((r) => r.path === '/wazzup/hooks?secret=s1')).toBe(true);
    allValid();
  });

  it('tells a template’s moderation as templateStatus', async () => {
    const wapi = await activeChannel(t, channelClient(t, apiKey), 'wapi');
    const created = await t.call('POST', `/v2/sandbox/channels/${wapi}/templates`, {
      token: apiKey,
      body: { name: 'order_ready', language: 'en', category: 'UTILITY', components: [{ type: 'body', text: 'Order {{1}} is ready' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const templateId = created.json().data.id as string;
    expect((await t.call('POST', `/v2/sandbox/templates/${templateId}/moderation`, { token: apiKey, body: { status: 'APPROVED' } })).statusCode).toBe(200);
    const status = await eventually(() => crm.of<V3TemplateStatus>('templateStatus').find((s) => s.templateGuid === templateId && s.status === 'approved'));
    expect(status).toEqual({ templateGuid: templateId, name: 'order_ready', status: 'approved' });
    allValid();
  });

  it('asks the CRM to create the contact and then the deal of a new customer given to a user, and keeps what it answers', async () => {
    expect((await t.call('POST', '/v2/users', { token: apiKey, body: { users: [{ id: 'u-7', name: 'Olga' }] } })).statusCode).toBe(201);
    const roles = [{ channel_id: channelId, user_id: 'u-7', role: 'seller', allow_get_new_clients: true }];
    const settings = await t.call('PATCH', '/v2/settings', { token: apiKey, body: { user_roles: roles, hide_phone_numbers_for_user_ids: [] } });
    expect(settings.statusCode, settings.body).toBe(200);
    expect((await t.call('POST', '/v2/pipelines', { token: apiKey, body: { pipelines: [{ id: 'p-1', name: 'Sales', stages: [{ id: 's-1', name: 'New' }] }] } })).statusCode).toBe(201);
    crm.answer((body) => {
      const contact = body.createContact as V3CreateContact | undefined;
      if (contact) return { status: 200, body: { id: 'c-100', responsibleUserId: contact.responsibleUserId, name: contact.name, contactData: contact.contactData } };
      const deal = body.createDeal as V3CreateDeal | undefined;
      if (deal) return { status: 200, body: { id: 555, responsibleUserId: deal.responsibleUserId, name: 'Order', uri: 'https://crm.example.com/deals/555', contacts: deal.contacts, closed: false } };
      return { status: 200 };
    });
    const newcomer = { chat_type: 'whatsapp', chat_id: '79165550000' };
    expect((await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: apiKey, body: { ...newcomer, name: 'Boris', text: 'Hello' } })).statusCode).toBe(201);

    const contact = await eventually(() => crm.of<V3CreateContact>('createContact')[0]);
    expect(contact).toEqual({ responsibleUserId: 'u-7', name: 'Boris', contactData: [{ chatType: 'whatsapp', chatId: newcomer.chat_id }], source: 'auto' });
    const deal = await eventually(() => crm.of<V3CreateDeal>('createDeal')[0]);
    expect(deal).toEqual({ responsibleUserId: 'u-7', contacts: ['c-100'], source: 'auto' });
    expect((await t.call('GET', '/v2/contacts/c-100', { token: apiKey })).json().data).toMatchObject({ id: 'c-100', name: 'Boris', responsible_user_id: 'u-7' });
    await eventually(async () => ((await t.call('GET', '/v2/deals/555', { token: apiKey })).statusCode === 200 ? true : undefined));
    expect((await t.call('GET', '/v2/deals/555', { token: apiKey })).json().data).toMatchObject({ id: '555', contacts: ['c-100'], closed: false });
    // createContact and createDeal each come alone.
    expect(crm.received.filter((r) => 'createContact' in r.body || 'createDeal' in r.body).every((r) => Object.keys(r.body).length === 1)).toBe(true);
    allValid();
  });

  it('stops what a switch turned off, and an empty address removes them all', async () => {
    crm.answer(() => ({ status: 200 }));
    expect((await patch({ webhooksUri: crm.url, subscriptions: { channelsUpdates: true } })).statusCode).toBe(200);
    const before = crm.received.length;
    expect((await t.call('POST', `/v2/sandbox/channels/${channelId}/inbound`, { token: apiKey, body: { ...customer, text: 'Anyone?' } })).statusCode).toBe(201);
    expect((await patch({ webhooksUri: '' })).statusCode).toBe(200);
    expect((await state()).webhooksUri).toBeNull();
    expect(crm.received.slice(before).filter((r) => 'messages' in r.body)).toEqual([]);
    const rows = await t.gateway.database.db.selectFrom('webhook_subscriptions').select('event').where('face', '=', 'v3').execute();
    expect(rows).toEqual([]);
  });
});
