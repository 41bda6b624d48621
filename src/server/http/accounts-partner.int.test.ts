import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled } from '../testing/messaging.ts';
import { basic } from '../testing/partner-http.ts';
import { databaseKind } from '../testing/test-database.ts';

const LOGIN = 'billing-partner';
const SECRET = 'billing partner secret';

describe(`accounts as partners know them (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.UTC(2030, 4, 17, 10));
  let t: TestGateway;
  const headers = { authorization: basic(LOGIN, SECRET) };
  let publicId: number;
  let token: string;
  let wapi: string;
  let templateId: string;

  const asPartner = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { headers, body });
  const sendTemplate = (chatId: string) =>
    t.call('POST', '/v2/messages', { token, body: { channel_id: wapi, recipient: { chat_type: 'whatsapp', chat_id: chatId }, template: { id: templateId, values: ['A-1'] } } });

  beforeAll(async () => {
    t = await startTestGateway({ clock, env: { PARTNER_LOGIN: LOGIN, PARTNER_SECRET: SECRET } });
    const created = await asPartner('POST', '/v2/accounts', { name: 'Billing Co', lang: 'pt', currency: 'USD', country: 'US', timezone: -5 });
    expect(created.statusCode).toBe(201);
    publicId = created.json().data.account.account_id;
    token = (await t.issueToken(String(publicId), 'client')).token;
    const { channel_id: id, url } = await channelClient(t, token).create('wapi');
    await t.call('GET', new URL(url!).pathname + new URL(url!).search);
    wapi = id;
    const template = await t.call('POST', `/v2/sandbox/channels/${wapi}/templates`, {
      token,
      body: { name: 'order_ready', language: 'en', category: 'UTILITY', components: [{ type: 'body', text: 'Order {{1}} is ready' }] },
    });
    templateId = template.json().data.id;
    await t.call('POST', `/v2/sandbox/templates/${templateId}/moderation`, { token, body: { status: 'APPROVED' } });
  });
  afterAll(() => t.close());

  it('answers {account: {account_id, name}} with an 8-digit id, and reads the account with expand', async () => {
    expect(String(publicId)).toMatch(/^\d{8}$/);
    const plain = await asPartner('GET', `/v2/accounts/${publicId}`);
    expect(plain.json().data.account).toMatchObject({ account_id: publicId, name: 'Billing Co', lang: 'pt', currency: 'USD', country: 'US', timezone: -5 });
    expect(plain.json().data.account.billing).toBeUndefined();
    const full = (await asPartner('GET', `/v2/accounts/${publicId}?expand=billing,channels,subscriptions`)).json().data.account;
    expect(full.billing).toEqual({ currency: 'USD', waba_balance: 0 });
    expect(full.channels).toEqual([expect.objectContaining({ channel_id: wapi, transport: 'wapi' })]);
    expect(full.subscriptions).toEqual([{ channel_id: wapi, transport: 'wapi', plan: 'sandbox', paid: expect.any(Boolean) }]);
    const refused = await asPartner('POST', '/v2/accounts', { name: 'Bad', currency: 'RUB' });
    expect(refused.statusCode).toBe(400);
  });

  it('pays business-API conversations from the balance, and refuses them with wapi_not_enough_money once it runs out', async () => {
    const empty = (await sendTemplate('79001230001')).json().data.request_id as string;
    expect(await settled(t, empty)).toMatchObject({ status: 'failed', reason: 'wapi_not_enough_money' });

    const topUp = await asPartner('POST', `/v2/accounts/${publicId}/waba-balance`, { value: 2 });
    expect([topUp.statusCode, topUp.json().data]).toEqual([200, null]);
    for (const chat of ['79001230002', '79001230003']) {
      expect((await settled(t, (await sendTemplate(chat)).json().data.request_id)).status).toBe('delivered');
    }
    expect((await settled(t, (await sendTemplate('79001230004')).json().data.request_id)).reason).toBe('wapi_not_enough_money');
    const billing = (await asPartner('GET', `/v2/accounts/${publicId}?expand=billing`)).json().data.account.billing;
    expect(billing.waba_balance).toBe(0);

    const day = await t.call('GET', `/v2/channels/waba/${wapi}/transactions/2030-05-17`, { token });
    expect(day.statusCode).toBe(200);
    expect(day.json().data).toEqual({
      transactions: [
        expect.objectContaining({ kind: 'conversation', amount: 1, chat_id: '79001230002' }),
        expect.objectContaining({ kind: 'conversation', amount: 1, chat_id: '79001230003' }),
      ],
      count: 2,
    });
    expect((await t.call('GET', `/v2/channels/waba/${wapi}/transactions/2030-05-18`, { token })).json().data).toEqual({ transactions: [], count: 0 });
    expect((await t.call('GET', `/v2/channels/waba/${wapi}/transactions/2030-02-31`, { token })).statusCode).toBe(400);
  });

  it('keeps the partner key\'s accounts out of a Basic partner\'s reach', async () => {
    const mine = await t.newAccount('Operator account');
    expect((await asPartner('GET', `/v2/accounts/${mine.accountId}`)).statusCode).toBe(404);
    expect((await asPartner('POST', `/v2/accounts/${mine.accountId}/waba-balance`, { value: 5 })).statusCode).toBe(404);
    expect((await t.call('GET', `/v2/accounts/${publicId}`, { token: t.partnerKey })).statusCode).toBe(200);
  });
});
