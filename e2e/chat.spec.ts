import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, dealPage, startCrmPage, type CrmPage } from './crm-page.ts';
import { expect, test } from './fixtures.ts';

/**
 * The agent's chat screen in a CRM page: the list, a chat's history, a customer writing live through the
 * sandbox, and a reply. The CRM page lives on an origin of its own, as in bridge.spec.ts.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp';
const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

test.beforeAll(async () => {
  crm = await startCrmPage(dealPage);
});
test.afterAll(async () => {
  await crm.close();
});

/** A telegram bot channel of the sandbox, active at once with a token of the real format. */
async function telegramChannel(request: APIRequestContext, token: string): Promise<string> {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } });
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${created!.channel_id}`))[0]!.status).toBe('active');
  return created!.channel_id;
}

const customerWrites = (request: APIRequestContext, token: string, channelId: string, username: string, name: string, text: string) =>
  api<{ message_id: string; chat_id: string }>(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'telegram', username, name, text });

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/chat-${name}.png` });
}

const chatRows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem');
const history = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages' });

test.describe('chat screen', () => {
  test('lists chats, opens one, shows a live message and sends a reply', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
    const channelId = await telegramChannel(request, token);
    await customerWrites(request, token, channelId, 'bob', 'Bob Stone', 'Is the order shipped?');
    let aliceChat = '';
    for (let i = 1; i <= 3; i++) aliceChat = (await customerWrites(request, token, channelId, 'alice', 'Alice Park', `Hello, question ${i}`)).chat_id;
    crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global' })).url);

    await page.setViewportSize({ width: 960, height: 640 });
    await page.goto(`${crm.origin}/deal/7`);
    const frame = page.frameLocator('#widget');

    // Unanswered first, newest first: Alice wrote last.
    await expect(chatRows(frame)).toHaveCount(2);
    await expect(chatRows(frame).nth(0)).toContainText('Alice Park');
    await expect(chatRows(frame).nth(0).getByLabel('3 unanswered')).toBeVisible();
    await expect(chatRows(frame).nth(1)).toContainText('Bob Stone');
    await shot(page, 'list');

    await chatRows(frame).nth(0).getByRole('button').first().click();
    const messages = history(frame);
    await expect(messages.getByRole('listitem')).toHaveCount(3);
    await expect(messages.getByRole('listitem').last()).toContainText('Hello, question 3');
    await expect(frame.getByRole('heading', { name: 'Alice Park' })).toBeVisible();

    // A customer writes while the chat is open, and someone new writes too.
    const asked = await customerWrites(request, token, channelId, 'alice', 'Alice Park', 'Are you there?');
    await expect(messages.getByRole('listitem').last()).toContainText('Are you there?');
    // The customer corrects what they wrote: the bubble changes in place, marked edited.
    await api(request, token, 'POST', `/v2/sandbox/messages/${asked.message_id}/edit`, { text: 'Are you there? Order 1042.' });
    await expect(messages.getByRole('listitem').last()).toContainText('Are you there? Order 1042.');
    await expect(messages.getByRole('listitem').last()).toContainText('edited');
    await expect(messages.getByRole('listitem')).toHaveCount(4);
    await expect(chatRows(frame).nth(0).getByLabel('4 unanswered')).toBeVisible();
    await customerWrites(request, token, channelId, 'carol', 'Carol Diaz', 'New here');
    await expect(chatRows(frame)).toHaveCount(3);
    await expect(chatRows(frame).nth(0)).toContainText('Carol Diaz');
    await shot(page, 'open');

    // The reply goes out and its status comes back; Alice's chat no longer waits for an answer.
    await frame.getByRole('textbox', { name: 'Message' }).fill('Yes, the order ships today.');
    await frame.getByRole('button', { name: 'Send' }).click();
    const reply = messages.getByRole('listitem').filter({ hasText: 'Yes, the order ships today.' });
    await expect(reply).toHaveCount(1);
    await expect(reply.getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(frame.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    const alice = chatRows(frame).filter({ hasText: 'Alice Park' });
    await expect(alice).toContainText('You: Yes, the order ships today.');
    await expect(alice.getByLabel(/unanswered/)).toHaveCount(0);
    await shot(page, 'replied');

    // The agent corrects the reply, then deletes it: it stays in the history, marked.
    await reply.hover();
    await expect(reply.getByRole('button', { name: 'Edit message' })).toBeVisible();
    // Beside the bubble, not inside it: hidden, they leave no empty band at the bubble's foot.
    const bubble = (await reply.locator('.gw-bubble').boundingBox())!;
    const actions = (await reply.locator('.gw-bubble__actions').boundingBox())!;
    expect(actions.x + actions.width).toBeLessThanOrEqual(bubble.x);
    await shot(page, 'actions');
    await reply.getByRole('button', { name: 'Edit message' }).click();
    const edited = frame.getByRole('textbox', { name: 'Edited message' });
    await expect(edited).toHaveValue('Yes, the order ships today.');
    await edited.fill('Yes, the order ships tomorrow morning.');
    await frame.getByRole('button', { name: 'Save' }).click();
    const corrected = messages.getByRole('listitem').filter({ hasText: 'Yes, the order ships tomorrow morning.' });
    await expect(corrected).toContainText('edited');
    await expect(frame.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    await corrected.hover();
    await corrected.getByRole('button', { name: 'Delete message' }).click();
    await shot(page, 'delete-confirm');
    await corrected.getByRole('group', { name: 'Delete this message for everyone?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(corrected.getByText('Deleted', { exact: true })).toBeVisible();
    await expect(corrected).toContainText('Yes, the order ships tomorrow morning.');
    await expect(alice).toContainText('Deleted · You: Yes, the order ships tomorrow morning.');
    await shot(page, 'deleted');

    // The CRM sends through the API (no message.add comes for it): the open chat and the list show it all the same.
    await api(request, token, 'POST', '/v2/messages', { channel_id: channelId, recipient: { chat_type: 'telegram', chat_id: aliceChat }, text: 'Invoice attached in the CRM.' });
    await expect(messages.getByRole('listitem').last()).toContainText('Invoice attached in the CRM.');
    await expect(alice).toContainText('You: Invoice attached in the CRM.');

    // Search narrows the list.
    await frame.getByRole('searchbox', { name: 'Search chats' }).fill('bob');
    await expect(chatRows(frame)).toHaveCount(1);
    await expect(chatRows(frame).nth(0)).toContainText('Bob Stone');

    // In a narrow side panel the frame shows the open chat alone, with a way back to the list.
    await page.locator('#widget').evaluate((el: HTMLIFrameElement) => (el.style.width = '380px'));
    await expect(frame.getByRole('list', { name: 'Chat list' })).toBeHidden();
    await shot(page, 'narrow');
    await frame.getByRole('button', { name: 'Back to the chat list' }).click();
    await expect(chatRows(frame)).toHaveCount(1);
    await expect(frame.getByRole('list', { name: 'Messages' })).toBeHidden();
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  test('says plainly when a message is too long or the gateway refuses it, and keeps the text', async ({ page, request, token }) => {
    await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
    const channelId = await telegramChannel(request, token);
    await customerWrites(request, token, channelId, 'dan', 'Dan Reed', 'Hi');
    crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1' }, scope: 'global' })).url);
    await page.goto(`${crm.origin}/deal/8`);
    const frame = page.frameLocator('#widget');
    await chatRows(frame).filter({ hasText: 'Dan Reed' }).getByRole('button').first().click();
    await expect(history(frame).getByRole('listitem')).toHaveCount(1);

    // Longer than the messenger takes: said before sending.
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.fill('x'.repeat(4097));
    await expect(frame.getByText('4,097 characters: this messenger takes at most 4,096.')).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Send' })).toBeDisabled();

    // The channel goes away while the chat is open: the gateway refuses, the screen says so and keeps the text.
    const gone = await request.delete(`/v2/channels/${channelId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status()).toBeLessThan(300);
    await box.fill('Are you still there?');
    await frame.getByRole('button', { name: 'Send' }).click();
    await expect(frame.getByRole('alert')).toContainText('Not sent.');
    await expect(box).toHaveValue('Are you still there?');
    await expect(history(frame).getByRole('listitem')).toHaveCount(1);
    await shot(page, 'send-error');
  });

  test('opens a long chat at its newest message and keeps the view in place as older pages come', async ({ page, request, token }) => {
    await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
    const channelId = await telegramChannel(request, token);
    const total = 130;
    for (let i = 1; i <= total; i++) await customerWrites(request, token, channelId, 'erin', 'Erin Long', `Line ${i}${i % 9 === 0 ? '\nwith a second line' : ''}`);
    crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1' }, scope: 'global' })).url);
    await page.setViewportSize({ width: 960, height: 640 });
    await page.goto(`${crm.origin}/deal/9`);
    const frame = page.frameLocator('#widget');
    await chatRows(frame).filter({ hasText: 'Erin Long' }).getByRole('button').first().click();

    // The newest page is shown from its end.
    const newest = history(frame).getByRole('listitem').filter({ hasText: `Line ${total}` });
    await expect(newest).toBeInViewport({ ratio: 1 });
    await expect(history(frame)).toHaveAttribute('data-count', '50');
    await shot(page, 'long-open');

    // Scrolling to the top reads the older page; the message that was at the top stays where it was.
    // The older page is held back until the position before it is taken.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(/\/bff\/chats\/[^/]+\/messages\?.*before=/, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    const firstShown = history(frame).getByRole('listitem').filter({ hasText: /(^|:\s*)Line 81\b/ });
    const top = async () => (await firstShown.boundingBox())?.y ?? Number.NaN;
    await frame.locator('.gw-history').evaluate((el) => (el.scrollTop = 0));
    await expect.poll(() => asked).toBe(true);
    const before = await top();
    expect(before).toBeGreaterThan(0);
    release();
    await expect(history(frame)).toHaveAttribute('data-count', String(total));
    await expect(frame.getByText('Start of the conversation')).toBeAttached();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(Math.abs((await top()) - before)).toBeLessThanOrEqual(2);
    await shot(page, 'long-older');

    // Only what is near the view is in the DOM.
    expect(await history(frame).getByRole('listitem').count()).toBeLessThan(60);
  });

  test('speaks Russian when the link asks for it: the list, the open chat, the composer, dates and marks', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
    const channelId = await telegramChannel(request, token);
    await customerWrites(request, token, channelId, 'fedor', 'Фёдор Ильин', 'Здравствуйте! Заказ уже отправлен?');
    const link = { user: { id: 'agent-1', name: 'Анна' }, scope: 'global', options: { lang: 'ru' } };
    crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', link)).url);
    await page.setViewportSize({ width: 960, height: 640 });
    await page.goto(`${crm.origin}/deal/10`);
    const frame = page.frameLocator('#widget');

    // The list and the empty side, before a chat is open.
    await expect(frame.locator('.gw-screen')).toHaveAttribute('lang', 'ru');
    await expect(frame.getByText('Выберите чат, чтобы прочитать его и ответить.')).toBeVisible();
    await expect(frame.getByRole('searchbox', { name: 'Поиск чатов' })).toHaveAttribute('placeholder', 'Поиск: имя, телефон, текст');
    await expect(frame.getByText(/^\d+ чат(а|ов)? жд(ёт|ут) ответа$/)).toBeVisible();
    const rows = frame.getByRole('list', { name: 'Список чатов' }).getByRole('listitem');
    const fedor = rows.filter({ hasText: 'Фёдор Ильин' });
    await expect(fedor.getByLabel('1 сообщение без ответа')).toBeVisible();

    // The open chat and the composer.
    await fedor.getByRole('button').first().click();
    await expect(frame.getByRole('region', { name: 'Чат: Фёдор Ильин' })).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Назад к списку чатов', includeHidden: true })).toBeAttached();
    const messages = frame.getByRole('list', { name: 'Сообщения' });
    await expect(messages.getByRole('listitem')).toHaveCount(1);
    await expect(frame.getByText('Начало переписки')).toBeAttached();
    const box = frame.getByRole('textbox', { name: 'Сообщение' });
    await expect(box).toHaveAttribute('placeholder', 'Напишите сообщение…');
    await box.fill('Да, заказ отправлен сегодня.');
    await frame.getByRole('button', { name: 'Отправить' }).click();
    const reply = messages.getByRole('listitem').filter({ hasText: 'Да, заказ отправлен сегодня.' });
    await expect(reply.getByRole('img', { name: 'Доставлено' })).toBeVisible();
    // Today's message shows the hour; its full date, in the title, has a Russian month.
    await expect(reply.locator('time')).toHaveAttribute('title', /^\d{1,2} [а-я]+\.? \d{4} г\.,? \d{2}:\d{2}$/);
    await expect(fedor).toContainText('Вы: Да, заказ отправлен сегодня.');
    await shot(page, 'ru');

    // Edited, then deleted: the marks are Russian too.
    await reply.hover();
    await reply.getByRole('button', { name: 'Изменить сообщение' }).click();
    await frame.getByRole('textbox', { name: 'Изменённое сообщение' }).fill('Да, заказ отправлен утром.');
    await frame.getByRole('button', { name: 'Сохранить' }).click();
    const corrected = messages.getByRole('listitem').filter({ hasText: 'Да, заказ отправлен утром.' });
    await expect(corrected).toContainText('изменено');
    await corrected.hover();
    await corrected.getByRole('button', { name: 'Удалить сообщение' }).click();
    await corrected.getByRole('group', { name: 'Удалить это сообщение у всех?' }).getByRole('button', { name: 'Удалить' }).click();
    await expect(corrected.getByText('Удалено', { exact: true })).toBeVisible();
    await expect(fedor).toContainText('Удалено · Вы: Да, заказ отправлен утром.');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });
});
