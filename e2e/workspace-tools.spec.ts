import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, whatsappChannel, whatsappCustomerWrites as customerWrites, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The agent's tools on an open chat: marking a chat answered without sending (the list's count and the host's
 * badge follow), and searching a chat's messages, a match leading the history to it however far back it is.
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

async function openFrame(page: Page, request: APIRequestContext, token: string, link: Record<string, unknown> = {}, width = 960): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', ...link })).url);
  await page.setViewportSize({ width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

async function shot(page: Page, name: string): Promise<void> {
  await paintedScreenshot(page, `${SHOTS}/workspace-${name}.png`);
}

const rows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
const messages = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages', exact: true }).getByRole('listitem');

test.describe('the tools of an open chat', () => {
  test('marks a waiting chat answered without sending; the list and the host follow', async ({ page, request, token }) => {
    // The spec file shares one gateway: only this test's chats wait.
    for (const c of await api<{ channel_id: string }[]>(request, token, 'GET', '/v2/channels')) await api(request, token, 'DELETE', `/v2/channels/${c.channel_id}?delete_chats=true`);
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001230201', 'Olga Lind', 'Thank you, all good!');
    await customerWrites(request, token, channelId, '79001230202', 'Max Berg', 'Is it in stock?');
    const frame = await openFrame(page, request, token);
    await expect(frame.getByRole('status').filter({ hasText: '2 chats wait for an answer' })).toBeVisible();
    const totals = () =>
      page.evaluate(() =>
        (window as unknown as { received: { type?: string; payload?: { total?: number } }[] }).received.filter((m) => m.type === 'unanswered_count_changed').map((m) => m.payload?.total),
      );
    await expect.poll(totals).toEqual([2]);

    await rows(frame).filter({ hasText: 'Olga Lind' }).getByRole('button').first().click();
    const mark = frame.getByRole('button', { name: 'Mark answered' });
    await expect(mark).toBeVisible();
    await axe(page, 'a waiting chat with its mark-answered button');
    await shot(page, 'tools-waiting');
    // At 320 px the header keeps the title, the button and the search side by side.
    await page.setViewportSize({ width: 320, height: 640 });
    await expect(mark).toBeInViewport();
    await expect(frame.getByRole('button', { name: 'Search in this chat' })).toBeInViewport();
    await axe(page, 'a waiting chat at 320 px');
    await shot(page, 'tools-waiting-320');
    await page.setViewportSize({ width: 960, height: 640 });
    await mark.click();

    await expect(mark).toHaveCount(0);
    await expect(frame.getByRole('status').filter({ hasText: '1 chat waits for an answer' })).toBeVisible();
    await expect.poll(totals).toEqual([2, 1]);
    // Nothing was sent: the chat holds the customer's message alone.
    await expect(messages(frame)).toHaveCount(1);
    // The server agrees, for any frame opened later.
    expect((await api<{ counter: number }>(request, token, 'GET', '/v2/counters/unanswered/agent-1')).counter).toBe(1);
    await axe(page, 'a chat marked answered');
    await shot(page, 'tools-answered');
  });

  test('searches a chat and leads the history to a match far back', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001230301', 'Nina Vale', 'My parcel number is AB-7731.');
    for (let i = 1; i <= 160; i++) await customerWrites(request, token, channelId, '79001230301', 'Nina Vale', `Later message ${i}`);
    const frame = await openFrame(page, request, token);
    await rows(frame).filter({ hasText: 'Nina Vale' }).getByRole('button').first().click();
    await expect(messages(frame).filter({ hasText: 'Later message 160' })).toBeVisible();

    await frame.getByRole('button', { name: 'Search in this chat' }).click();
    const box = frame.getByRole('searchbox', { name: 'Search the messages of this chat' });
    await expect(box).toBeFocused();
    await box.fill('ab-77');
    const found = frame.getByRole('list', { name: 'Messages found' }).getByRole('button');
    await expect(found).toHaveCount(1);
    await expect(found).toContainText('My parcel number is AB-7731.');
    await axe(page, 'search results in a chat');
    await shot(page, 'tools-search');

    await found.click();
    const match = messages(frame).filter({ hasText: 'My parcel number is AB-7731.' });
    await expect(match).toBeInViewport();
    await shot(page, 'tools-search-jumped');

    await box.fill('nothing like this');
    await expect(frame.getByText('No message of this chat contains these words.')).toBeVisible();
    await axe(page, 'a search without matches');
    await page.keyboard.press('Escape');
    await expect(box).toHaveCount(0);
    await expect(frame.getByRole('button', { name: 'Search in this chat' })).toBeFocused();
  });

  test('leads the history to a quoted message further back than the loaded pages when the quote is pressed', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    const customer = { chat_type: 'whatsapp', chat_id: '79001230501', name: 'Pavel Orlov' };
    const inbound = `/v2/sandbox/channels/${channelId}/inbound`;
    const first = await api<{ message_id: string }>(request, token, 'POST', inbound, { ...customer, text: 'Order 5512 arrived broken.' });
    for (let i = 1; i <= 150; i++) await customerWrites(request, token, channelId, customer.chat_id, customer.name, `Update ${i}`);
    await api(request, token, 'POST', inbound, { ...customer, text: 'Any news about this?', reply_to: first.message_id });
    const frame = await openFrame(page, request, token);
    await rows(frame).filter({ hasText: 'Pavel Orlov' }).getByRole('button').first().click();
    const reply = messages(frame).filter({ hasText: 'Any news about this?' });
    await expect(reply).toBeVisible();
    const original = messages(frame).filter({ hasText: 'Order 5512 arrived broken.' }).filter({ hasNotText: 'Any news about this?' });
    await expect(original).toHaveCount(0);

    await reply.getByRole('button', { name: /Order 5512 arrived broken/ }).click();
    await expect(original).toBeInViewport();
    await shot(page, 'tools-quote-jumped');
  });

  test('speaks Russian in the dark at 320 px, search open', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await customerWrites(request, token, channelId, '79001230401', 'Фёдор Зуев', 'Где мой заказ номер 42?');
    const frame = await openFrame(page, request, token, { options: { lang: 'ru', theme: 'dark' } }, 320);
    await frame.getByRole('list', { name: 'Список чатов' }).getByRole('listitem').filter({ hasText: 'Фёдор Зуев' }).getByRole('button').first().click();
    await expect(frame.getByRole('button', { name: 'Отвечено' })).toBeVisible();
    await frame.getByRole('button', { name: 'Поиск в этом чате' }).click();
    await frame.getByRole('searchbox', { name: 'Поиск по сообщениям этого чата' }).fill('ЗАКАЗ');
    await expect(frame.getByRole('list', { name: 'Найденные сообщения' }).getByRole('button')).toContainText('Где мой заказ номер 42?');
    await axe(page, 'search in Russian, dark, 320 px');
    await shot(page, 'tools-search-ru-dark-320');
  });
});
