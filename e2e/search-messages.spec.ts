import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, whatsappChannel, whatsappCustomerWrites as customerWrites, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The chat list's search across message texts: a word of an older message of one chat is found among the
 * messages of all chats, and choosing the hit opens the chat at that message. And a waiting row's "⋯" menu,
 * which marks the chat answered without opening it.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/search-shots';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

async function openFrame(page: Page, request: APIRequestContext, token: string, options: Record<string, unknown> = {}, width = 960): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  const link = { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', options };
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', link)).url);
  await page.setViewportSize({ width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const shot = (page: Page, name: string) => paintedScreenshot(page, `${SHOTS}/search-${name}.png`);
const rows = (frame: FrameLocator, name = 'Chat list') => frame.getByRole('list', { name }).getByRole('listitem');
const history = (frame: FrameLocator, name = 'Messages') => frame.getByRole('list', { name, exact: true }).getByRole('listitem');

test.describe('the chat list searching messages', () => {
  test('finds an older message of one chat among all chats and opens the chat at it', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001239101', 'Lena Park', 'Is the copper kettle still in stock?');
    for (let i = 1; i <= 80; i++) await customerWrites(request, token, channelId, '79001239101', 'Lena Park', `Follow-up note ${i}`);
    await customerWrites(request, token, channelId, '79001239102', 'Omar Haddad', 'My kettle arrived with a dent');
    const frame = await openFrame(page, request, token);
    await expect(rows(frame).filter({ hasText: 'Lena Park' })).toBeVisible();

    await frame.getByRole('searchbox', { name: 'Search chats' }).fill('KETT');
    const hits = frame.getByRole('list', { name: 'Matching messages in all chats' }).getByRole('button');
    await expect(hits).toHaveCount(2);
    // Newest first; each hit says its chat and messenger, and marks the word.
    await expect(hits.nth(0)).toContainText('Omar Haddad');
    await expect(hits.nth(1)).toContainText('Lena Park');
    await expect(hits.nth(1)).toContainText('Is the copper kettle still in stock?');
    await expect(hits.nth(1)).toContainText('WhatsApp');
    await expect(hits.nth(1).locator('mark')).toHaveText('kett');
    // Lena's chat itself does not match: its last message has no such word.
    await expect(rows(frame)).toHaveCount(1);
    await expect(rows(frame).first()).toContainText('Omar Haddad');
    await axe(page, 'the chat list with message hits');
    await shot(page, 'hits');

    // The arrow keys go on from the chat rows into the hits; Enter opens one.
    await rows(frame).first().getByRole('button', { name: /^Omar Haddad/ }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(hits.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(hits.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(frame.getByRole('region', { name: 'Message history' })).toBeVisible();
    const match = history(frame).filter({ hasText: 'Is the copper kettle still in stock?' });
    await expect(match).toBeInViewport();
    await expect(match.locator('[class*="ring-accent"]')).toHaveCount(1);
    await shot(page, 'hit-opened');
  });

  test("marks a waiting chat answered from its row's menu", async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001239201', 'Rita Moss', 'Thanks, that is all!');
    const frame = await openFrame(page, request, token);
    const row = rows(frame).filter({ hasText: 'Rita Moss' });
    await expect(row.getByLabel('1 unanswered')).toBeVisible();

    const more = row.getByRole('button', { name: 'Actions for the chat with Rita Moss' });
    await more.click();
    const item = frame.getByRole('menuitem', { name: 'Mark as answered' });
    await expect(item).toBeFocused();
    await axe(page, "a row's menu open");
    await shot(page, 'row-menu');
    await page.keyboard.press('Escape');
    await expect(item).toHaveCount(0);
    await expect(more).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(item).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(row.getByLabel('1 unanswered')).toHaveCount(0);
    await expect(more).toHaveCount(0);
    await expect(row.getByRole('button', { name: /^Rita Moss/ })).toBeFocused();
    // Nothing was sent, and the server agrees: a frame opened later shows the chat answered.
    await row.getByRole('button', { name: /^Rita Moss/ }).click();
    await expect(history(frame)).toHaveCount(1);
    const later = await openFrame(page, request, token);
    await expect(rows(later).filter({ hasText: 'Rita Moss' })).toBeVisible();
    await expect(rows(later).filter({ hasText: 'Rita Moss' }).getByLabel('1 unanswered')).toHaveCount(0);
  });

  test('speaks Russian in the dark at 320 px, hits shown', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001239301', 'Фёдор Зуев', 'Привет, как дела с моим заказом?');
    await customerWrites(request, token, channelId, '79001239301', 'Фёдор Зуев', 'Жду ответа');
    await customerWrites(request, token, channelId, '79001239302', 'Анна Белова', 'привет! Можно оплатить картой?');
    const frame = await openFrame(page, request, token, { lang: 'ru', theme: 'dark' }, 320);
    await frame.getByRole('searchbox', { name: 'Поиск чатов' }).fill('Привет');
    const hits = frame.getByRole('list', { name: 'Совпадения в сообщениях всех чатов' }).getByRole('button');
    await expect(hits).toHaveCount(2);
    await expect(hits.nth(1)).toContainText('Привет, как дела с моим заказом?');
    await expect(frame.getByRole('heading', { name: 'Сообщения' })).toBeVisible();
    await axe(page, 'message hits in Russian, dark, 320 px');
    await shot(page, 'hits-ru-dark-320');

    await hits.nth(1).click();
    await expect(history(frame, 'Сообщения').filter({ hasText: 'Привет, как дела с моим заказом?' })).toBeInViewport();
    await shot(page, 'hit-opened-ru-dark-320');
  });
});
