import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import { freePort } from '../testing/free-port.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { activeChannel } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { v3Client, V3ApiError, type V3Client } from '../testing/v3-client.ts';
import { startV3WebhookReceiver, type V3WebhookReceiver } from '../testing/v3-webhook-receiver.ts';

// A CRM built on v3, pointed at the gateway over HTTP with only its base URL and API key changed.
describe(`a v3 CRM end to end against the sandbox (${databaseKind()})`, () => {
  let t: TestGateway;
  let crm: V3Client;
  let apiKey: string;
  let whatsapp: string;
  let hooks: V3WebhookReceiver;

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    t = await startTestGateway({ env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base } });
    await t.gateway.listen();
    const account = await t.newAccount();
    apiKey = account.token;
    whatsapp = await activeChannel(t, channelClient(t, apiKey), 'whatsapp');
    crm = v3Client(base, apiKey);
    hooks = await startV3WebhookReceiver();
    await crm.webhooks.set({ webhooksUri: hooks.url, subscriptions: { messagesAndStatuses: true } });
  });
  afterAll(async () => {
    await hooks.close();
    await t.close();
  });

  const statusOf = async (id: string) => (await sql<{ status: string }>`select status from messages where id = ${id}`.execute(t.gateway.database.db)).rows[0]?.status;

  it('lists channels, sends, edits and deletes a message', async () => {
    const channel = (await crm.channels()).find((c) => c.channelId === whatsapp);
    expect(channel).toMatchObject({ transport: 'whatsapp', state: 'active' });
    const sent = await crm.send({ channelId: whatsapp, chatType: 'whatsapp', chatId: '79001112233', text: 'Your order is ready', crmMessageId: 'order-1' });
    expect(sent.chatId).toBe('79001112233');
    await expect(crm.send({ channelId: whatsapp, chatType: 'whatsapp', chatId: '79001112233', text: 'Your order is ready', crmMessageId: 'order-1' })).rejects.toMatchObject({
      status: 400,
      body: { error: 'REPEATED_CRM_MESSAGE_ID' },
    });
    // The statuses webhook of this message is where a v3 CRM learns of delivery; every body is checked against the v3 schema.
    const statuses = await eventually(async () => {
      const got = hooks.of<{ messageId: string; status: string }>('statuses').filter((s) => s.messageId === sent.messageId);
      return got.some((s) => s.status === 'delivered') ? got : undefined;
    });
    expect(statuses.map((s) => s.status)).toContain('delivered');
    expect(hooks.received.filter((r) => r.invalid.length > 0)).toEqual([]);
    expect(await statusOf(sent.messageId)).toBe('delivered');
    await crm.edit(sent.messageId, { text: 'Your order is ready for pickup' });
    await crm.deleteMessage(sent.messageId);
    const again = await crm.deleteMessage(sent.messageId).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(V3ApiError);
  });

  it('syncs users, contacts, deals and pipelines', async () => {
    await crm.users.upsert([{ id: 'manager-1', name: 'Maria' }]);
    expect(await crm.users.list()).toEqual([{ id: 'manager-1', name: 'Maria' }]);
    await crm.contacts.upsert([{ id: 'contact-1', responsibleUserId: 'manager-1', name: 'Ivan', contactData: [{ chatType: 'whatsapp', chatId: '79001112233' }] }]);
    expect(await crm.contacts.list()).toMatchObject({ count: 1, data: [{ id: 'contact-1', name: 'Ivan' }] });
    await crm.deals.upsert([{ id: 'deal-1', responsibleUserId: 'manager-1', name: 'Order 1', uri: 'https://crm.example/deals/1', contacts: ['contact-1'], closed: false }]);
    expect(await crm.deals.get('deal-1')).toMatchObject({ contacts: ['contact-1'], closed: false });
    await crm.pipelines.upsert([{ id: 'sales', name: 'Sales', stages: [{ id: 'new', name: 'New' }] }]);
    expect(await crm.pipelines.list()).toEqual([{ id: 'sales', name: 'Sales', stages: [{ id: 'new', name: 'New' }] }]);
    expect(await crm.deals.bulkDelete(['deal-1', 'deal-2'])).toEqual(['deal-2']);
  });

  it('opens the chat window and reads the unanswered counter', async () => {
    const { url } = await crm.iframe({ user: { id: 'manager-1', name: 'Maria' }, scope: 'card', filter: [{ chatType: 'whatsapp', chatId: '79001112233' }] });
    expect(new URL(url).searchParams.get('link')).toBeTruthy();
    expect(await crm.unanswered('manager-1')).toEqual({ counterV2: 0, type: null, lastMsgDateTime: null });
    await t.call('POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { token: apiKey, body: { chat_type: 'whatsapp', chat_id: '79001112299', text: 'Hello?' } });
    expect(await crm.unanswered('manager-1')).toMatchObject({ counterV2: 1, type: 'red' });
  });
});
