import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrameLocator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/**
 * The first five minutes of a newcomer, on a fresh data directory: the demo CRM at `/`, a WhatsApp channel
 * connected in its connect frame by scanning the QR from the sandbox phone, the customer writing from the phone,
 * the agent answering in the contact card's chat frame, the answer arriving on the phone, and the demo's log showing
 * the webhooks and the frames' bridge messages. The screenshots are the documentation's pictures (docs/images/).
 */
const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));

async function picture(page: Page, name: string): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: `${IMAGES}${name}.png` });
}

const logEntry = (page: Page, kind: 'frame → page' | 'webhook', title: string | RegExp) =>
  page.locator('#log li').filter({ has: page.locator('.kind', { hasText: new RegExp(`^${kind}$`) }) }).filter({ has: page.locator('strong', { hasText: title }) });

const history = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages' });

test('a newcomer connects WhatsApp from the demo CRM with the sandbox phone and answers a customer', async ({ page, context }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 960 });
  await page.goto('/');

  // The demo CRM, labelled as one, with the contact's card and the inbox, each with its chat frame.
  await expect(page).toHaveTitle(/Demo CRM/);
  await expect(page.locator('.demo-label')).toHaveText('Demo');
  await expect(page.getByRole('heading', { name: 'Anna Petrova' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs');
  await expect(logEntry(page, 'frame → page', 'ready (card)')).toHaveCount(1);
  await expect(logEntry(page, 'frame → page', 'ready (inbox)')).toHaveCount(1);

  // The admin connects WhatsApp: the connect frame shows a QR.
  await page.getByRole('tab', { name: 'Admin' }).click();
  const connect = page.frameLocator('#connect-frame');
  await expect(logEntry(page, 'frame → page', 'ready (connect)')).toHaveCount(1);
  await connect.getByRole('radio', { name: 'WhatsApp', exact: true }).check();
  await connect.getByRole('button', { name: 'Connect WhatsApp' }).click();
  await expect(connect.getByRole('img', { name: 'QR code to scan with WhatsApp' })).toBeVisible();
  await picture(page, 'demo-connect');

  // The sandbox phone, opened from the demo with its token, scans the QR.
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 720, height: 1100 });
  await phone.goto((await page.locator('#phone-link').getAttribute('href'))!);
  await expect(phone.getByRole('heading', { name: 'Sandbox phone', level: 1 })).toBeVisible();
  await expect(phone.locator('#channel-status')).toContainText('whatsapp · init');
  await phone.getByRole('button', { name: 'Scan the QR' }).click();
  await expect(phone.locator('#channel-status')).toContainText('whatsapp · active');
  await expect(logEntry(page, 'frame → page', 'channel_connected (connect)')).toHaveCount(1);
  await expect(logEntry(page, 'webhook', 'channel.status_update').first()).toBeVisible();

  // The customer writes from the phone (her number is filled in by the demo's link).
  await expect(phone.getByLabel('Customer (number or chat id)')).toHaveValue('79161234567');
  await phone.getByLabel('Message', { exact: true }).fill('Hello! Is my order 1042 on its way?');
  await phone.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(phone.locator('#messages')).toContainText('Hello! Is my order 1042 on its way?');
  await expect(logEntry(page, 'webhook', 'message.add')).toHaveCount(1);

  // The agent answers in the contact card's chat frame.
  await page.getByRole('tab', { name: 'Contacts' }).click();
  const card = page.frameLocator('#card-frame');
  const rows = card.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
  // A card with one contact opens straight at the chat once it is found; otherwise the agent picks it from the list.
  await expect(history(card).or(rows.first())).toBeVisible();
  if (!(await history(card).isVisible())) await rows.first().getByRole('button').first().click();
  await expect(history(card)).toContainText('Hello! Is my order 1042 on its way?');
  await expect(page.frameLocator('#inbox-frame').getByRole('list', { name: 'Chat list' })).toContainText('Anna Petrova');
  await card.getByRole('textbox', { name: 'Message' }).fill('Yes, it ships today.');
  await card.getByRole('button', { name: 'Send' }).click();

  // The answer arrives on the phone; the log has its webhooks and the frames' messages.
  const answer = phone.locator('#messages li').filter({ hasText: 'Yes, it ships today.' });
  await expect(answer).toContainText('delivered');
  await expect(logEntry(page, 'webhook', 'message.status_update').first()).toBeVisible();
  await expect(logEntry(page, 'frame → page', /^chat_opened|^unanswered_count_changed/).first()).toBeVisible();
  // Every delivery the demo received passed its signature check.
  await expect(page.locator('#log .kind', { hasText: 'bad signature' })).toHaveCount(0);

  // The customer reads it: the agent sees it read.
  await answer.getByRole('button', { name: 'Mark read' }).click();
  await expect(answer).toContainText('read');
  await picture(page, 'demo-crm');
  await phone.bringToFront();
  await picture(phone, 'sandbox-phone');

  // The demo's language and theme switch redraws the frames as a CRM's user settings would (`set_options`).
  await page.bringToFront();
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ru');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  const inbox = page.frameLocator('#inbox-frame');
  await expect(inbox.getByRole('list', { name: 'Список чатов' })).toContainText('Anna Petrova');
  await expect(inbox.locator('.gw-screen')).toHaveAttribute('data-theme', 'dark');
  await expect(card.locator('.gw-screen')).toHaveAttribute('data-theme', 'dark');
  // Kept for the next visit: the frames start in it.
  await page.reload();
  await expect(page.frameLocator('#inbox-frame').getByRole('list', { name: 'Список чатов' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('ru');
  await expect(page.locator('link[rel=icon]')).toHaveAttribute('href', '/demo/favicon.svg');
  expect((await page.request.get('/demo/favicon.svg')).status()).toBe(200);
});
