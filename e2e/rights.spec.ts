import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, dealPage, startCrmPage, type CrmPage } from './crm-page.ts';
import { expect, test } from './fixtures.ts';

/**
 * The account's rights in the chat frame, as an agent meets them in a CRM page: a seller sees only the chats of
 * the channel they have a role on, and a user listed in hide_phone_numbers_for_user_ids sees no customer's number.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp';
const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;
const NUMBER = '79005550123';
/** The customer's number, whole or in the usual groups. */
const SHOWN_NUMBER = /5550123|555 01 23|555-01-23/;

test.beforeAll(async () => {
  crm = await startCrmPage(dealPage);
});
test.afterAll(async () => {
  await crm.close();
});

async function activeChannel(request: APIRequestContext, token: string, body: unknown, scan: boolean): Promise<string> {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', body);
  const id = created!.channel_id;
  if (scan) await api(request, token, 'POST', `/v2/sandbox/channels/${id}/scan`, {});
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${id}`))[0]!.status, { timeout: 30_000 }).toBe('active');
  return id;
}

const chatRows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');

async function openFor(page: Page, request: APIRequestContext, token: string, userId: string): Promise<FrameLocator> {
  crm.embed((await api<{ link: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user_id: userId, author_name: userId, scope: 'global' })).link);
  await page.goto(`${crm.origin}/deal/7`);
  return page.frameLocator('#widget');
}

test('a seller sees only their channel, and a listed user sees no phone numbers', async ({ page, request, token }) => {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  const bot = await activeChannel(request, token, { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } }, false);
  const whatsapp = await activeChannel(request, token, { transport: 'whatsapp', credentials: {} }, true);
  await api(request, token, 'POST', `/v2/sandbox/channels/${bot}/inbound`, { chat_type: 'telegram', username: 'bob', name: 'Bob Stone', text: 'Where is my order?' });
  await api(request, token, 'POST', `/v2/sandbox/channels/${whatsapp}/inbound`, { chat_type: 'whatsapp', chat_id: NUMBER, text: 'Hello from WhatsApp' });
  await api(request, token, 'PATCH', '/v2/settings', {
    user_roles: [
      { channel_id: bot, user_id: 'seller-1', role: 'seller', allow_get_new_clients: true },
      { channel_id: bot, user_id: 'auditor-1', role: 'auditor', allow_get_new_clients: false },
      { channel_id: whatsapp, user_id: 'auditor-1', role: 'auditor', allow_get_new_clients: false },
    ],
    hide_phone_numbers_for_user_ids: ['auditor-1'],
  });
  await page.setViewportSize({ width: 960, height: 640 });

  const seller = await openFor(page, request, token, 'seller-1');
  await expect(chatRows(seller)).toHaveCount(1);
  await expect(chatRows(seller).nth(0)).toContainText('Bob Stone');
  await page.screenshot({ path: `${SHOTS}/rights-seller.png` });

  const auditor = await openFor(page, request, token, 'auditor-1');
  await expect(chatRows(auditor)).toHaveCount(2);
  await expect(chatRows(auditor).filter({ hasText: 'Hello from WhatsApp' })).toHaveCount(1);
  // The chat is named by its masked number, never by the stand-in id.
  await expect(chatRows(auditor).filter({ hasText: 'Hello from WhatsApp' })).toContainText('••••23');
  await expect(auditor.locator('body')).not.toContainText(SHOWN_NUMBER);
  await chatRows(auditor).filter({ hasText: 'Hello from WhatsApp' }).getByRole('button').first().click();
  await expect(auditor.getByRole('list', { name: 'Messages' }).getByRole('listitem').last()).toContainText('Hello from WhatsApp');
  await expect(auditor.locator('body')).not.toContainText(SHOWN_NUMBER);
  await page.screenshot({ path: `${SHOTS}/rights-hidden.png` });
});
