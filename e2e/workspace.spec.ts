import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, frameOnlyCrmForFile, whatsappChannel } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The agent's workspace as an agent uses it all day: opening a chat and answering by keyboard alone, replying to
 * the customer's message, sending a pasted picture with a caption, writing first to a card's contact, and how
 * every screen looks and reads (axe-core, screenshots) in English and Russian, light and dark, down to 320 px.
 */
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';
const crm = frameOnlyCrmForFile(SHOTS);
const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;
/** A 2×2 PNG, as a screenshot pasted from the clipboard would be. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';


async function telegramChannel(request: APIRequestContext, token: string): Promise<string> {
  const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: TELEGRAM_TOKEN } });
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${created!.channel_id}`))[0]!.status).toBe('active');
  return created!.channel_id;
}

const customerWrites = (request: APIRequestContext, token: string, channelId: string, username: string, name: string, text: string) =>
  api<{ message_id: string; chat_id: string }>(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'telegram', username, name, text });

async function openFrame(page: Page, request: APIRequestContext, token: string, link: Record<string, unknown>, size = { width: 960, height: 640 }): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', ...link })).url);
  await page.setViewportSize(size);
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

async function shot(page: Page, name: string): Promise<void> {
  await paintedScreenshot(page, `${SHOTS}/workspace-${name}.png`);
}

const rows = (frame: FrameLocator, name = 'Chat list') => frame.getByRole('list', { name }).getByRole('listitem');
const messages = (frame: FrameLocator, name = 'Messages') => frame.getByRole('list', { name }).getByRole('listitem');

test.describe('the agent workspace', () => {
  test('keyboard alone: from the list to a chat to a sent reply; a reply quotes the customer and leads back to it', async ({ page, request, token }) => {
    const channelId = await telegramChannel(request, token);
    await customerWrites(request, token, channelId, 'bob', 'Bob Stone', 'Is the order shipped?');
    await customerWrites(request, token, channelId, 'alice', 'Alice Park', 'Hello, where is my parcel?');
    await customerWrites(request, token, channelId, 'alice', 'Alice Park', 'It was due yesterday.');
    const frame = await openFrame(page, request, token, {});

    // Each row names the messenger; the list is one main landmark's side, with one h1 for the screen.
    await expect(rows(frame)).toHaveCount(2);
    await expect(rows(frame).first()).toContainText('Telegram bot');
    await expect(frame.locator('h1')).toHaveCount(1);
    await expect(frame.getByRole('main')).toHaveCount(1);
    await axe(page, 'the chat list');
    await shot(page, 'list-en-light');

    // Arrows move between rows; Enter opens the chat and the focus goes to the text box.
    await frame.getByRole('searchbox', { name: 'Search chats' }).focus();
    // Past the search's "New chat" and "Notifications" buttons, to the first row.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(rows(frame).first().getByRole('button').first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(rows(frame).nth(1).getByRole('button').first()).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const box = frame.getByRole('textbox', { name: 'Message' });
    await expect(box).toBeFocused();
    await page.keyboard.type('Checking now.');
    await page.keyboard.press('Enter');
    const sent = messages(frame).filter({ hasText: 'Checking now.' });
    await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();
    // Today's messages sit under one date separator; the header names the messenger too.
    await expect(frame.getByText('Today', { exact: true })).toHaveCount(1);
    await expect(frame.getByRole('region', { name: 'Chat with Alice Park' }).locator('header')).toContainText('Telegram bot');

    // Reply to the customer's first message: the reply quotes it, and the quote leads back to it.
    const asked = messages(frame).filter({ hasText: 'Hello, where is my parcel?' }).first();
    await asked.hover();
    await asked.getByRole('button', { name: 'Reply to this message' }).click();
    await expect(frame.getByRole('group', { name: 'Replying to' })).toContainText('Hello, where is my parcel?');
    await expect(box).toBeFocused();
    await shot(page, 'replying');
    await axe(page, 'an open chat, replying');
    await page.keyboard.type('It leaves the warehouse today.');
    await page.keyboard.press('Enter');
    const reply = messages(frame).filter({ hasText: 'It leaves the warehouse today.' });
    await expect(reply.getByRole('button', { name: /Hello, where is my parcel\?/ })).toBeVisible();
    await expect(reply.getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(frame.getByRole('group', { name: 'Replying to' })).toHaveCount(0);
    await reply.getByRole('button', { name: /Hello, where is my parcel\?/ }).click();
    await expect(asked).toBeInViewport();
    await shot(page, 'replied');

    // Escape keeps a message the agent was about to delete.
    await reply.hover();
    await reply.getByRole('button', { name: 'Delete message' }).click();
    const confirm = reply.getByRole('group', { name: 'Delete this message for everyone?' });
    await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(reply.getByRole('button', { name: 'Delete message' })).toBeFocused();
  });

  test('sends a pasted picture with a caption and shows it in place', async ({ page, request, token }) => {
    const channelId = await whatsappChannel(request, token);
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: '79001230001', name: 'Gail Ross', text: 'Can you show me the colour?' });
    const frame = await openFrame(page, request, token, {});
    await rows(frame).filter({ hasText: 'Gail Ross' }).getByRole('button').first().click();
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.evaluate((el, png) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'colour.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG);
    const waiting = frame.getByRole('group', { name: 'File to send: colour.png' });
    await expect(waiting).toBeVisible();
    await expect(waiting.locator('img')).toBeVisible();
    const caption = frame.getByRole('textbox', { name: 'Caption' });
    await caption.fill('This is the navy one.');
    await shot(page, 'paste-preview');
    await axe(page, 'a pasted file waiting to be sent');
    await caption.press('Enter');
    const picture = messages(frame).filter({ has: frame.getByRole('img', { name: 'colour.png' }) });
    await expect(picture.getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(picture.getByRole('img', { name: 'colour.png' })).toBeVisible();
    await expect(messages(frame).last()).toContainText('This is the navy one.');
    await expect(waiting).toHaveCount(0);
    await shot(page, 'picture-sent');
  });

  test('writes first to a card’s contact without a channel named: through the one channel that can reach them', async ({ page, request, token }) => {
    // The spec file shares one gateway: only this test's channel is left to reach the contact.
    for (const c of await api<{ channel_id: string }[]>(request, token, 'GET', '/v2/channels')) await api(request, token, 'DELETE', `/v2/channels/${c.channel_id}`);
    await whatsappChannel(request, token);
    const frame = await openFrame(page, request, token, { scope: 'card', chats: [{ chat_type: 'whatsapp', chat_id: '79001230099', contact_name: 'Hana Lee' }] });
    const box = frame.getByRole('textbox', { name: 'Message' });
    await expect(box).toBeEnabled();
    await expect(frame.getByRole('combobox', { name: 'Send through' })).toHaveValue(/.+/);
    await box.fill('Hello Hana, your order is ready.');
    await box.press('Enter');
    await expect(messages(frame).filter({ hasText: 'Hello Hana, your order is ready.' }).getByRole('img', { name: /Delivered|Sent/ })).toBeVisible();
    await expect(rows(frame)).toHaveCount(1);
    await axe(page, 'a card written to first');
    await shot(page, 'card-first');
  });

  test('keeps a chat just answered in view when it moves down the list', async ({ page, request, token }) => {
    const channelId = await telegramChannel(request, token);
    for (let i = 1; i <= 12; i++) await customerWrites(request, token, channelId, `waiting${i}`, `Waiting ${String(i).padStart(2, '0')}`, `Question ${i}`);
    const frame = await openFrame(page, request, token, {});
    const first = rows(frame).filter({ hasText: 'Waiting 12' });
    await first.getByRole('button').first().click();
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.fill('Answered.');
    await box.press('Enter');
    // Answered, the chat goes below every chat that still waits: the list follows it there.
    await expect(first).toContainText('You: Answered.');
    await expect(rows(frame).nth(0)).not.toContainText('Waiting 12');
    await expect(first).toBeInViewport();
    await shot(page, 'answered-moved');
  });

  // The spec file shares one gateway: each look has a customer of its own.
  for (const look of [
    { lang: 'ru', theme: 'dark', width: 320, customer: 'Фёдор Ильин' },
    { lang: 'en', theme: 'dark', width: 960, customer: 'Фёдор Орлов' },
    { lang: 'ru', theme: 'light', width: 960, customer: 'Фёдор Зуев' },
  ] as const) {
    test(`reads well in ${look.lang}, ${look.theme}, ${look.width} px`, async ({ page, request, token }) => {
      const channelId = await telegramChannel(request, token);
      await customerWrites(request, token, channelId, `fedor-${look.width}-${look.theme}`, look.customer, 'Здравствуйте! Заказ уже отправлен? https://shop.example/orders/1042');
      const frame = await openFrame(page, request, token, { options: { lang: look.lang, theme: look.theme } }, { width: look.width, height: 640 });
      const ru = look.lang === 'ru';
      const list = ru ? 'Список чатов' : 'Chat list';
      const fedor = rows(frame, list).filter({ hasText: look.customer });
      await expect(fedor).toHaveCount(1);
      await expect(frame.locator('.gw-screen')).toHaveAttribute('data-theme', look.theme);
      await axe(page, `the list (${look.lang}, ${look.theme}, ${look.width})`);
      await shot(page, `list-${look.lang}-${look.theme}-${look.width}`);
      await fedor.getByRole('button').first().click();
      await expect(messages(frame, ru ? 'Сообщения' : 'Messages')).toHaveCount(1);
      await expect(frame.getByRole('link', { name: 'https://shop.example/orders/1042' })).toBeVisible();
      const box = frame.getByRole('textbox', { name: ru ? 'Сообщение' : 'Message' });
      await box.fill(ru ? 'Да, сегодня.' : 'Yes, today.');
      await box.press('Enter');
      await expect(messages(frame, ru ? 'Сообщения' : 'Messages')).toHaveCount(2);
      await axe(page, `an open chat (${look.lang}, ${look.theme}, ${look.width})`);
      await shot(page, `chat-${look.lang}-${look.theme}-${look.width}`);
      if (look.width === 320) {
        // Nothing wider than the frame: no sideways scrolling on a phone-sized panel.
        const overflow = await frame.locator('body').evaluate((b) => b.scrollWidth - b.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    });
  }
});
