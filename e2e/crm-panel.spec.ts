import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The CRM beside an open chat: the chat's contact and open deals under its header; asking the CRM for a deal
 * (`crm_entities.deal_add`) and for a contact (`crm_entities.contact_add` and the bridge's `contact_to_create`);
 * a link's `use_events` keeping chat events from the host page.
 */
let crm: CrmPage;
let hooks: Server;
let hookUrl = '';
const delivered: { event?: string; data?: unknown }[] = [];
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/crm-panel-shots';
const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // A CRM page that records what the frame tells it.
  crm = await startCrmPage(recordingPage);
  // The CRM's webhook receiver.
  hooks = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      delivered.push(JSON.parse(body) as { event?: string; data?: unknown });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
});
test.afterAll(async () => {
  await crm.close();
  await new Promise((resolve) => hooks.close(resolve));
});

async function telegramChannel(request: APIRequestContext, token: string, telegramToken = TELEGRAM_TOKEN): Promise<string> {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: telegramToken } });
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${created!.channel_id}`))[0]!.status).toBe('active');
  return created!.channel_id;
}

async function openFrame(page: Page, request: APIRequestContext, token: string, link: Record<string, unknown>): Promise<FrameLocator> {
  crm.embed((await api<{ link: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user_id: 'agent-1', author_name: 'Ann', scope: 'global', ...link })).link);
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const received = (page: Page) => page.evaluate(() => (window as unknown as { received: { type?: string; payload?: Record<string, unknown> }[] }).received);
const types = async (page: Page) => (await received(page)).map((m) => m.type);
const rows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
const panel = (frame: FrameLocator) => frame.getByRole('region', { name: 'Contact in the CRM' });

async function shot(page: Page, name: string): Promise<void> {
  await paintedScreenshot(page, `${SHOTS}/crm-panel-${name}.png`);
}

test('an open chat shows its CRM contact and open deals, asks the CRM for a deal and a contact, and follows use_events', async ({ page, request, token }) => {
  test.setTimeout(120_000);
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  await api(request, token, 'POST', '/v2/webhooks', { data: [{ url: hookUrl, event: 'crm_entities.contact_add' }, { url: hookUrl, event: 'crm_entities.deal_add' }] });
  const channelId = await telegramChannel(request, token);
  for (const [username, name, text] of [
    ['bob', 'Bob Stone', 'Is the order shipped?'],
    ['alice', 'Alice Park', 'Hello, where is my parcel?'],
  ] as const) {
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'telegram', username, name, text });
  }
  await api(request, token, 'POST', '/v2/contacts', {
    contacts: [{ id: 'c-1', name: 'Bob Stone (Acme)', contact_data: [{ chat_type: 'telegram', username: 'bob' }], uri: 'https://crm.example.com/contacts/c-1' }],
  });
  await api(request, token, 'POST', '/v2/deals', {
    deals: [
      { id: 'd-1', name: 'Order 1001', contacts: ['c-1'], uri: 'https://crm.example.com/deals/d-1' },
      { id: 'd-2', name: 'Order 900', contacts: ['c-1'], closed: true },
    ],
  });
  await page.setViewportSize({ width: 960, height: 640 });
  const frame = await openFrame(page, request, token, {});

  // Bob's chat: his contact, linked to the CRM in a new tab, and only his open deal.
  await rows(frame).filter({ hasText: 'Is the order shipped?' }).getByRole('button').first().click();
  const contact = panel(frame).getByRole('link', { name: /Bob Stone \(Acme\)/ });
  await expect(contact).toHaveAttribute('href', 'https://crm.example.com/contacts/c-1');
  await expect(contact).toHaveAttribute('target', '_blank');
  await expect(panel(frame).getByRole('list').getByRole('listitem')).toHaveText(['Order 1001']);
  await axe(page, 'a chat with its contact');
  await shot(page, 'contact');
  // A new deal for Bob: the CRM hears of it with his contact.
  await panel(frame).getByRole('button', { name: 'Create deal' }).click();
  await expect(panel(frame).getByRole('status')).toHaveText('The CRM was asked to create a deal.');
  await expect.poll(() => delivered.find((d) => d.event === 'crm_entities.deal_add'), { timeout: 30_000 }).toBeTruthy();
  expect(JSON.stringify(delivered.find((d) => d.event === 'crm_entities.deal_add'))).toContain('c-1');

  // Alice's chat has no contact: the agent asks the CRM for one, by keyboard.
  await rows(frame).filter({ hasText: 'Hello, where is my parcel?' }).getByRole('button').first().click();
  await expect(panel(frame)).toContainText('No contact in the CRM.');
  await panel(frame).getByRole('button', { name: 'Create contact' }).focus();
  await page.keyboard.press('Enter');
  await expect(panel(frame).getByRole('status')).toHaveText('The CRM was asked to create the contact.');
  await expect.poll(() => delivered.find((d) => d.event === 'crm_entities.contact_add'), { timeout: 30_000 }).toBeTruthy();
  expect(JSON.stringify(delivered.find((d) => d.event === 'crm_entities.contact_add'))).toContain('alice');
  await expect.poll(async () => (await received(page)).find((m) => m.type === 'contact_to_create')?.payload).toMatchObject({ chat_type: 'telegram', username: 'alice', name: 'Alice Park' });
  expect(await types(page)).toContain('chat_opened');
  await axe(page, 'a chat without a contact, asked');
  await page.setViewportSize({ width: 320, height: 640 });
  await shot(page, 'asked-320');

  // A link without message events: opening a chat is not told to the host; the CRM's asks still are.
  await page.setViewportSize({ width: 960, height: 640 });
  const quiet = await openFrame(page, request, token, { use_events: { messages: false, deals: true } });
  await expect.poll(() => types(page)).toContain('ready');
  await rows(quiet).filter({ hasText: 'Hello, where is my parcel?' }).getByRole('button').first().click();
  await panel(quiet).getByRole('button', { name: 'Create contact' }).click();
  await expect(panel(quiet).getByRole('status')).toHaveText('The CRM was asked to create the contact.');
  await expect.poll(() => types(page)).toContain('contact_to_create');
  expect(await types(page)).not.toContain('chat_opened');
  expect(await types(page)).not.toContain('unanswered_count_changed');
});

test.describe('in Russian', () => {
  test.use({ locale: 'ru-RU' });

  test('the panel speaks Russian', async ({ page, request, token }) => {
    await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
    const channelId = await telegramChannel(request, token, `987654321:${'C'.repeat(20)}${'d_-'.repeat(5)}`);
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'telegram', username: 'oleg', name: 'Oleg', text: 'Привет' });
    await page.setViewportSize({ width: 320, height: 640 });
    const frame = await openFrame(page, request, token, { options: { lang: 'ru' } });
    await frame.getByRole('list', { name: 'Список чатов' }).getByRole('listitem').filter({ hasText: 'Привет' }).getByRole('button').first().click();
    const region = frame.getByRole('region', { name: 'Контакт в CRM' });
    await expect(region).toContainText('Контакта в CRM нет.');
    await expect(region.getByRole('button', { name: 'Создать контакт' })).toBeVisible();
    await axe(page, 'the panel in Russian at 320 px');
    await shot(page, 'ru-320');
  });
});
