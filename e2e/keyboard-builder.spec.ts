import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * Buttons on a message from the chat frame: the keyboard builder of a telegram bot's chat says what is over the
 * limits as the agent types, attaches the buttons above the text box, and the sent message shows them under it.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';
const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

/** A telegram bot channel of the sandbox (active at once), and a customer who wrote to it. */
async function telegramChat(request: APIRequestContext, token: string, name: string): Promise<void> {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } });
  const channelId = created!.channel_id;
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
  await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'telegram', username: `u${Date.now()}`, name, text: 'Where is my order?' });
}

async function openChat(page: Page, request: APIRequestContext, token: string, name: string, link: Record<string, unknown>, width: number): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', ...link })).url);
  await page.setViewportSize({ width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  const frame = page.frameLocator('#widget');
  await frame.getByRole('listitem').filter({ hasText: name }).getByRole('button').first().click();
  return frame;
}

const shot = (page: Page, name: string) => paintedScreenshot(page, `${SHOTS}/keyboard-${name}.png`);
const lastMessage = (frame: FrameLocator, list: string) => frame.getByRole('list', { name: list, exact: true }).getByRole('listitem').last();

test('builds an inline keyboard, says what is over the limits as it is typed, and sends it', async ({ page, request, token }) => {
  await telegramChat(request, token, 'Olga Lind');
  const frame = await openChat(page, request, token, 'Olga Lind', {}, 960);
  await frame.getByRole('button', { name: 'Add buttons to the message' }).click();
  const dialog = frame.getByRole('dialog', { name: 'Buttons for the message' });
  const attach = dialog.getByRole('button', { name: 'Attach the buttons' });
  const first = dialog.getByRole('group', { name: 'Button 1 of row 1' });
  await expect(first.getByLabel('Text')).toBeFocused();
  await expect(dialog).toContainText('1/12 buttons');

  // 65 characters: one more than a telegram button shows.
  await first.getByLabel('Text').fill('x'.repeat(65));
  await expect(first).toContainText('65/64');
  await expect(first.getByText('At most 64 characters.')).toBeVisible();
  await expect(first.getByLabel('Text')).toHaveAttribute('aria-invalid', 'true');
  await expect(attach).toBeDisabled();
  await first.getByLabel('Text').fill('Track the order');
  await expect(first).toContainText('15/64');
  await first.getByLabel('What it does').selectOption({ label: 'Opens a link' });
  await first.getByLabel('Link').fill('shop.example/track');
  await expect(first.getByText('A link starting with http://, https:// or tg://')).toBeVisible();
  await first.getByLabel('Link').fill('https://shop.example/track/1042');
  await expect(first.getByText('A link starting with')).toHaveCount(0);

  // A second row: its button takes the focus; its callback data is counted in UTF-8 bytes (a Cyrillic letter is 2).
  await dialog.getByRole('button', { name: 'Add a row' }).click();
  const second = dialog.getByRole('group', { name: 'Button 1 of row 2' });
  await expect(second.getByLabel('Text')).toBeFocused();
  await expect(dialog).toContainText('2/12 buttons');
  await page.keyboard.type('Перезвоните мне');
  await second.getByLabel('Callback data').fill(`${'я'.repeat(32)}1`);
  await expect(second).toContainText('65/64 bytes');
  await expect(second.getByText('At most 64 bytes')).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText('Fix 1 field to attach the buttons.');
  await expect(attach).toBeDisabled();
  await axe(page, 'the keyboard builder with a field over its limit');
  await shot(page, 'builder-over-limit');
  await second.getByLabel('Callback data').press('Backspace');
  await expect(second).toContainText('64/64 bytes');
  await expect(second.getByText('At most 64 bytes')).toHaveCount(0);
  await expect(attach).toBeEnabled();
  await attach.click();

  // The buttons wait above the text box, as the customer will see them, and go with the message.
  await expect(dialog).toHaveCount(0);
  const waiting = frame.getByRole('group', { name: 'Buttons to send with the message' });
  await expect(waiting.getByRole('link', { name: /Track the order/ })).toHaveAttribute('href', 'https://shop.example/track/1042');
  await expect(waiting).toContainText('Перезвоните мне');
  const box = frame.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeFocused();
  await shot(page, 'attached');
  await box.fill('Your order ships today.');
  await box.press('Enter');
  await expect(waiting).toHaveCount(0);
  const sent = lastMessage(frame, 'Messages');
  await expect(sent).toContainText('Your order ships today.');
  await expect(sent.getByRole('img', { name: /sent|delivered|read/i })).toBeVisible();
  const shown = sent.getByRole('group', { name: 'Buttons under the message' });
  await expect(shown.getByRole('link', { name: /Track the order/ })).toHaveAttribute('href', 'https://shop.example/track/1042');
  await expect(shown).toContainText('Перезвоните мне');
  await shot(page, 'sent');

  // The gateway kept them: a reload reads them back from the history.
  await page.reload();
  await frame.getByRole('listitem').filter({ hasText: 'Olga Lind' }).getByRole('button').first().click();
  await expect(lastMessage(frame, 'Messages').getByRole('group', { name: 'Buttons under the message' })).toContainText('Перезвоните мне');
});

test('in Russian, dark, at 320 px, by keyboard alone', async ({ page, request, token }) => {
  await telegramChat(request, token, 'Фёдор Зуев');
  const frame = await openChat(page, request, token, 'Фёдор Зуев', { options: { lang: 'ru', theme: 'dark' } }, 320);
  const box = frame.getByRole('textbox', { name: 'Сообщение' });
  await expect(box).toBeFocused();
  const open = frame.getByRole('button', { name: 'Добавить кнопки к сообщению' });
  await page.keyboard.press('Shift+Tab');
  await expect(open).toBeFocused();
  await page.keyboard.press('Enter');

  const dialog = frame.getByRole('dialog', { name: 'Кнопки к сообщению' });
  await expect(dialog).toBeInViewport({ ratio: 1 });
  const button = dialog.getByRole('group', { name: 'Кнопка 1 ряда 1' });
  await expect(button.getByLabel('Текст')).toBeFocused();
  await page.keyboard.type('Да, перезвоните');
  await page.keyboard.press('Tab');
  await expect(button.getByLabel('Что делает')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(button.getByLabel('Callback data')).toBeFocused();
  await page.keyboard.type('я'.repeat(33));
  await expect(button).toContainText('66/64 байт');
  await expect(button.getByText('Не больше 64 байт')).toBeVisible();
  await axe(page, 'the keyboard builder in Russian, dark, 320 px');
  await shot(page, 'builder-ru-dark-320');

  // Escape leaves nothing attached and gives the focus back.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();
  await expect(frame.getByRole('group', { name: 'Кнопки к отправке' })).toHaveCount(0);

  // Again, and Enter in a field attaches once all is well.
  await page.keyboard.press('Enter');
  await expect(button.getByLabel('Текст')).toBeFocused();
  await page.keyboard.type('Да, перезвоните');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('call-back');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(box).toBeFocused();
  const waiting = frame.getByRole('group', { name: 'Кнопки к отправке' });
  await expect(waiting).toContainText('Да, перезвоните');
  await page.keyboard.type('Перезвонить вам?');
  await shot(page, 'attached-ru-dark-320');
  await page.keyboard.press('Enter');
  const sent = lastMessage(frame, 'Сообщения');
  await expect(sent).toContainText('Перезвонить вам?');
  await expect(sent.getByRole('group', { name: 'Кнопки под сообщением' })).toContainText('Да, перезвоните');
  await axe(page, 'a message sent with buttons, Russian, dark, 320 px');
  await shot(page, 'sent-ru-dark-320');
});

test('builds a MAX bot keyboard: a coloured callback button and a link button', async ({ page, request, token }) => {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'maxbot', credentials: { access_token: 'm'.repeat(30) } });
  const channelId = created!.channel_id;
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
  await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'max', chat_id: '4242', name: 'Anna Kravets', text: 'Can I pay on delivery?' });
  const frame = await openChat(page, request, token, 'Anna Kravets', {}, 960);
  await frame.getByRole('button', { name: 'Add buttons to the message' }).click();
  const dialog = frame.getByRole('dialog', { name: 'Buttons for the message' });
  // MAX keeps every button: no count against a limit.
  await expect(dialog).toContainText('1 button');
  const pay = dialog.getByRole('group', { name: 'Button 1 of row 1' });
  await pay.getByLabel('Text').fill('Pay now');
  await expect(pay.getByText('Required.')).toBeVisible();
  await pay.getByLabel('Payload').fill('x'.repeat(1025));
  await expect(pay).toContainText('1025/1024');
  await expect(pay.getByText('At most 1024 characters.')).toBeVisible();
  await pay.getByLabel('Payload').fill('pay:1042');
  await pay.getByLabel('Colour').selectOption({ label: 'Positive' });
  await dialog.getByRole('button', { name: 'Add a button to row 1' }).click();
  const site = dialog.getByRole('group', { name: 'Button 2 of row 1' });
  await expect(site.getByLabel('Text')).toBeFocused();
  await page.keyboard.type('Our terms');
  await site.getByLabel('What it does').selectOption({ label: 'Opens a link' });
  // A MAX link opens web pages only.
  await site.getByLabel('Link').fill('tg://resolve?domain=shop');
  await expect(site.getByText('A link starting with http:// or https://')).toBeVisible();
  await expect(site.getByLabel('Colour')).toHaveCount(0);
  await site.getByLabel('Link').fill('https://shop.example/terms');
  await axe(page, 'the MAX bot keyboard builder');
  await shot(page, 'builder-max');
  await dialog.getByRole('button', { name: 'Attach the buttons' }).click();

  const sending = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/bff/messages');
  await frame.getByRole('textbox', { name: 'Message' }).fill('Pay now or on delivery.');
  await frame.getByRole('textbox', { name: 'Message' }).press('Enter');
  expect((await sending).postDataJSON().keyboard).toEqual({
    buttons: [
      [
        { type: 'callback', text: 'Pay now', payload: 'pay:1042', intent: 'positive' },
        { type: 'link', text: 'Our terms', url: 'https://shop.example/terms' },
      ],
    ],
  });
  const sent = lastMessage(frame, 'Messages');
  await expect(sent.getByRole('img', { name: /sent|delivered|read/i })).toBeVisible();
  await expect(sent.getByRole('group', { name: 'Buttons under the message' }).getByRole('link', { name: /Our terms/ })).toBeVisible();
  await shot(page, 'sent-max');
});

test('says what the gateway changed in the buttons sent: business-API buttons do not go with a file', async ({ page, request, token }) => {
  const [created] = await api<{ channel_id: string; url: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'wapi', credentials: {} });
  const channelId = created!.channel_id;
  expect((await request.get(created!.url)).status()).toBe(200);
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
  await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: '79001110042', name: 'Gleb Orlov', text: 'Send me the receipt' });
  const frame = await openChat(page, request, token, 'Gleb Orlov', {}, 960);
  await frame.getByRole('button', { name: 'Add buttons to the message' }).click();
  const dialog = frame.getByRole('dialog', { name: 'Buttons for the message' });
  // The business API's buttons are one list, not rows.
  const first = dialog.getByRole('group', { name: 'Button 1', exact: true });
  await first.getByLabel('Text').fill('Thanks');
  await first.getByLabel('Payload').fill('thanks');
  await dialog.getByRole('button', { name: 'Attach the buttons' }).click();
  await expect(frame.getByRole('group', { name: 'Buttons to send with the message' })).toContainText('Thanks');

  // A file without words: the buttons would go with the file, which the business API does not take; the gateway
  // sends the file alone and says so in its answer, and the composer tells the agent.
  await frame.locator('input[type=file]').setInputFiles({ name: 'receipt-42.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 receipt 42') });
  await frame.getByRole('button', { name: 'Send', exact: true }).click();
  const sent = lastMessage(frame, 'Messages');
  await expect(sent).toContainText('receipt-42.pdf');
  const note = frame.getByRole('status').filter({ hasText: 'Sent, but the gateway changed the buttons:' });
  await expect(note).toContainText('business-API buttons go with a text only, not with a file or a template');
  // The message shows what went, the file alone: not the buttons the agent attached.
  await expect(sent.getByRole('group', { name: 'Buttons under the message' })).toHaveCount(0);
  await shot(page, 'warnings');
  await note.getByRole('button', { name: 'Dismiss' }).click();
  await expect(note).toHaveCount(0);
});
