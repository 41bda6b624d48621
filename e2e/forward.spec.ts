import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, frameOnlyCrmForFile, whatsappChannel, whatsappCustomerWrites as customerWrites } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/** Forwarding a customer's message from one chat to another, from the message's menu, keyboard-only where it counts. */
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';
const crm = frameOnlyCrmForFile(SHOTS);


async function openFrame(page: Page, request: APIRequestContext, token: string): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global' })).url);
  await page.setViewportSize({ width: 960, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const rows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
const messages = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages', exact: true }).getByRole('listitem');

test('forwards a customer’s message to another chat, where it arrives', async ({ page, request, token }) => {
  const channelId = await whatsappChannel(request, token);
  await customerWrites(request, token, channelId, '79001230401', 'Olga Lind', 'Order 5521 arrived damaged, photo to follow.');
  await customerWrites(request, token, channelId, '79001230402', 'Max Berg', 'Hello, any news?');
  const frame = await openFrame(page, request, token);
  await rows(frame).filter({ hasText: 'Olga Lind' }).getByRole('button').first().click();
  const original = messages(frame).filter({ hasText: 'Order 5521 arrived damaged' });
  await expect(original).toBeVisible();

  // The inbound message's menu offers the forward; Escape ends it and gives the focus back to the menu's button.
  await original.hover();
  const forwardButton = original.getByRole('button', { name: 'Forward this message to another chat' });
  await forwardButton.click();
  const dialog = frame.getByRole('dialog', { name: 'Forward the message' });
  await expect(dialog).toBeVisible();
  const search = dialog.getByRole('searchbox', { name: 'Search chats to forward to' });
  await expect(search).toBeFocused();
  const offered = dialog.getByRole('list', { name: 'Chats that can take this message' }).getByRole('button');
  await expect(offered.filter({ hasText: 'Max Berg' })).toBeVisible();
  // The chat the message comes from is not offered.
  await expect(offered.filter({ hasText: 'Olga Lind' })).toHaveCount(0);
  await axe(page, 'the forward dialog');
  await paintedScreenshot(page, `${SHOTS}/forward-dialog.png`);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(forwardButton).toBeFocused();

  // Keyboard only: open it again, search, choose the chat and send.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.keyboard.press('Enter');
  await expect(search).toBeFocused();
  await page.keyboard.type('Max');
  await expect(offered).toHaveCount(1);
  await expect(offered).toContainText('Max Berg');
  await expect(dialog).toBeInViewport({ ratio: 1 });
  await axe(page, 'the forward dialog at 320 px');
  await paintedScreenshot(page, `${SHOTS}/forward-dialog-320.png`);
  await page.keyboard.press('Tab');
  await expect(offered).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(offered).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Forward', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(dialog.getByRole('status')).toHaveText('Forwarded to Max Berg.');
  const openIt = dialog.getByRole('button', { name: 'Open that chat' });
  await expect(openIt).toBeFocused();
  await axe(page, 'a forward sent');
  await paintedScreenshot(page, `${SHOTS}/forward-sent-320.png`);
  await page.setViewportSize({ width: 960, height: 640 });
  await page.keyboard.press('Enter');

  // Chat B holds the message, sent by the agent's side.
  await expect(frame.getByRole('heading', { level: 2, name: 'Max Berg' })).toBeVisible();
  const arrived = messages(frame).filter({ hasText: 'Order 5521 arrived damaged, photo to follow.' });
  await expect(arrived).toBeVisible();
  await expect(arrived.getByRole('img', { name: /sent|delivered|read/i })).toBeVisible();
  await paintedScreenshot(page, `${SHOTS}/forward-arrived.png`);
});
