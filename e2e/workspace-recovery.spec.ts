import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, whatsappChannel, whatsappCustomerWrites as customerWrites, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The agent's workspace when things go wrong: a message the messenger refuses is flagged in the chat and in the
 * list and sent again in one click, a frame that loses its connection says so and catches up when it is back, and
 * a page reloaded with the frame's single-use link keeps the frame working.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

async function openFrame(page: Page, request: APIRequestContext, token: string): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global' })).url);
  await page.setViewportSize({ width: 960, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

async function shot(page: Page, name: string): Promise<void> {
  await paintedScreenshot(page, `${SHOTS}/workspace-${name}.png`);
}

const rows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
const messages = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages' }).getByRole('listitem');

test.describe('the agent workspace when things go wrong', () => {
  test('flags a message the messenger refused, in the chat and the list, and sends it again', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001230101', 'Ivan Petrov', 'Please call me back.');
    const frame = await openFrame(page, request, token);
    await rows(frame).filter({ hasText: 'Ivan Petrov' }).getByRole('button').first().click();

    // The customer has blocked the account: the messenger refuses what the agent sends.
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/customers`, { chat_type: 'whatsapp', chat_id: '79001230101', state: 'blocked' });
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.fill('Calling you in five minutes.');
    await box.press('Enter');
    const refused = messages(frame).filter({ hasText: 'Calling you in five minutes.' });
    await expect(refused.getByRole('img', { name: 'Not delivered' })).toBeVisible();
    await expect(refused).toContainText(/Not delivered: /);
    await expect(rows(frame).filter({ hasText: 'Ivan Petrov' }).getByRole('img', { name: 'Not delivered' })).toBeVisible();
    await axe(page, 'a message not delivered');
    await shot(page, 'failed');

    // Unblocked, the same words go again in one click and arrive.
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/customers`, { chat_type: 'whatsapp', chat_id: '79001230101', state: 'ok' });
    await refused.getByRole('button', { name: 'Send again' }).click();
    const again = messages(frame).filter({ hasText: 'Calling you in five minutes.' }).last();
    await expect(again.getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(rows(frame).filter({ hasText: 'Ivan Petrov' }).getByRole('img', { name: 'Not delivered' })).toHaveCount(0);
    await shot(page, 'retried');
  });

  test('tells the host the server’s unanswered totals, and opens again when the page reloads with the same link', async ({ page, request, token }) => {
    // The spec file shares one gateway: only this test's chats wait.
    for (const c of await api<{ channel_id: string }[]>(request, token, 'GET', '/v2/channels')) await api(request, token, 'DELETE', `/v2/channels/${c.channel_id}?delete_chats=true`);
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001230103', 'Pavel Orlov', 'Hello?');
    await customerWrites(request, token, channelId, '79001230103', 'Pavel Orlov', 'Anyone there?');
    await customerWrites(request, token, channelId, '79001230104', 'Rita Gold', 'Do you deliver on Sundays?');
    const frame = await openFrame(page, request, token);
    await expect(frame.getByRole('status').filter({ hasText: '2 chats wait for an answer' })).toBeVisible();
    const totals = () =>
      page.evaluate(() =>
        (window as unknown as { received: { type?: string; payload?: { total?: number } }[] }).received.filter((m) => m.type === 'unanswered_count_changed').map((m) => m.payload?.total),
      );
    await expect.poll(totals).toEqual([3]);

    // The host page reloads and embeds the link it used before (single-use): the frame carries on in its session.
    await page.reload();
    await expect(rows(frame)).toHaveCount(2);
    await expect(frame.getByText('This link is not valid')).toHaveCount(0);
    await expect.poll(totals).toEqual([3]);
    // The frame alone reloads: it carries on too, and tells the host its total again.
    await frame.locator('body').evaluate(() => location.reload());
    await expect(rows(frame)).toHaveCount(2);
    await expect.poll(totals).toEqual([3, 3]);
    await rows(frame).filter({ hasText: 'Rita Gold' }).getByRole('button').first().click();
    await frame.getByRole('textbox', { name: 'Message' }).fill('Yes, we do.');
    await frame.getByRole('textbox', { name: 'Message' }).press('Enter');
    await expect(messages(frame).filter({ hasText: 'Yes, we do.' }).getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(frame.getByRole('status').filter({ hasText: '1 chat waits for an answer' })).toBeVisible();
    await expect.poll(totals).toEqual([3, 3, 2]);
    await shot(page, 'reloaded');
  });

  test('says it is offline, and catches up with what came meanwhile once it is back', async ({ page, context, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001230102', 'Olga Sokol', 'Is the shop open today?');
    const frame = await openFrame(page, request, token);
    await rows(frame).filter({ hasText: 'Olga Sokol' }).getByRole('button').first().click();
    await expect(messages(frame)).toHaveCount(1);

    await context.setOffline(true);
    await expect(frame.getByRole('status').filter({ hasText: 'Offline: reconnecting…' })).toBeVisible({ timeout: 30_000 });
    await customerWrites(request, token, channelId, '79001230102', 'Olga Sokol', 'Until what time?');
    await axe(page, 'the frame offline');
    await shot(page, 'offline');

    await context.setOffline(false);
    await expect(frame.getByText('Offline: reconnecting…')).toHaveCount(0, { timeout: 30_000 });
    await expect(messages(frame).filter({ hasText: 'Until what time?' })).toBeVisible();
    await expect(rows(frame).filter({ hasText: 'Olga Sokol' })).toContainText('Until what time?');
    await shot(page, 'back-online');
  });
});
