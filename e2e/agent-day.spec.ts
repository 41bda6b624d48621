import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, startCrmPage, whatsappChannel, whatsappCustomerWrites, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * An agent's day in the chat frame: what changes while it is open (a channel that comes active), a message that
 * failed and is sent again, the composer's box, unread counts apart from unanswered ones with the title and the
 * host told, starting a chat from the inbox, and a card's contact named by the CRM before any message.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/agent-day-shots';
/** Two small PNGs (2×2, red and blue) and a short PDF, as an agent would paste or pick them. */
const RED = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

type Look = { lang: 'en' | 'ru'; theme: 'light' | 'dark'; width: number };

async function openFrame(page: Page, request: APIRequestContext, token: string, look: Look, link: Record<string, unknown> = { scope: 'global' }): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, options: { lang: look.lang, theme: look.theme }, ...link })).url);
  await page.setViewportSize({ width: look.width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const shot = (page: Page, name: string) => paintedScreenshot(page, `${SHOTS}/agent-day-${name}.png`);
const rows = (frame: FrameLocator, name: string) => frame.getByRole('list', { name }).getByRole('listitem');
const messages = (frame: FrameLocator, name: string) => frame.getByRole('list', { name }).getByRole('listitem');
const customerState = (request: APIRequestContext, token: string, channelId: string, chatId: string, state: 'blocked' | 'ok') =>
  api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/customers`, { chat_type: 'whatsapp', chat_id: chatId, state });

/** A business-API number of the sandbox, authorized at the sandbox's page as the provider's would be. */
async function wapiChannel(request: APIRequestContext, token: string): Promise<string> {
  const [created] = await api<{ channel_id: string; url: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'wapi', credentials: {} });
  expect((await request.get(created!.url)).status()).toBe(200);
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${created!.channel_id}`))[0]!.status).toBe('active');
  return created!.channel_id;
}

/** What the host page heard from the frame, of one type. */
const heard = (page: Page, type: string) =>
  page.evaluate((t) => (window as unknown as { received: { type: string; payload: unknown }[] }).received.filter((m) => m.type === t).map((m) => m.payload), type);

test.describe('an agent’s day in the chat frame', () => {
  test('a channel that comes while the frame is open, a failed message sent again, and the composer’s box (English, dark, 960 px)', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001230101', 'Dana Lee', 'Is my order ready?');
    const frame = await openFrame(page, request, token, { lang: 'en', theme: 'dark', width: 960 });
    await rows(frame, 'Chat list').filter({ hasText: 'Dana Lee' }).getByRole('button').first().click();

    // The empty box is as tall as its one line with its borders: nothing to scroll. It grows with the text, and back.
    const box = frame.getByRole('textbox', { name: 'Message' });
    const measure = () => box.evaluate((el: HTMLTextAreaElement) => ({ client: el.clientHeight, scroll: el.scrollHeight, offset: el.offsetHeight, overflow: getComputedStyle(el).overflowY }));
    const empty = await measure();
    expect(empty.scroll).toBeLessThanOrEqual(empty.client);
    expect(empty.overflow).toBe('hidden');
    expect(empty.offset).toBeGreaterThanOrEqual(30);
    await box.fill('one\ntwo\nthree');
    const grown = await measure();
    expect(grown.offset).toBeGreaterThan(empty.offset + 30);
    expect(grown.scroll).toBeLessThanOrEqual(grown.client);
    await box.fill('');
    expect((await measure()).offset).toBe(empty.offset);

    // The customer blocked the number: the message fails. Unblocked, "Send again" sends it, in the same bubble.
    await customerState(request, token, wa, '79001230101', 'blocked');
    await box.fill('Yes, it ships today.');
    await box.press('Enter');
    const sent = messages(frame, 'Messages').filter({ hasText: 'Yes, it ships today.' });
    await expect(sent.getByRole('button', { name: 'Send again' })).toBeVisible();
    await shot(page, 'failed-en-dark-960');
    await customerState(request, token, wa, '79001230101', 'ok');
    await sent.getByRole('button', { name: 'Send again' }).click();
    await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(sent).toHaveCount(1);
    await expect(frame.getByRole('button', { name: 'Send again' })).toHaveCount(0);
    // The chat's row no longer flags its last message as not delivered.
    await expect(rows(frame, 'Chat list').filter({ hasText: 'Dana Lee' }).getByRole('img', { name: 'Not delivered' })).toHaveCount(0);
    await shot(page, 'sent-again-en-dark-960');
    // A screen reader hears who wrote each message and when, before its words.
    await expect(messages(frame, 'Messages').filter({ hasText: 'Is my order ready?' })).toContainText(/Dana Lee, .*\d{1,2}:\d\d.*:\s*Is my order ready\?/);
    // Once the gateway names the message's author, the bubble shows the agent's name too (hidden from the reader).
    await expect(sent).toContainText(/You, .*\d{1,2}:\d\d.*:\s*(?:Ann)?Yes, it ships today\./);

    // Read again from the gateway (a new link, the same tab): the failed message stays replaced.
    const again = await openFrame(page, request, token, { lang: 'en', theme: 'dark', width: 960 });
    await rows(again, 'Chat list').filter({ hasText: 'Dana Lee' }).getByRole('button').first().click();
    await expect(messages(again, 'Messages').filter({ hasText: 'Yes, it ships today.' })).toHaveCount(1);
    await expect(again.getByRole('button', { name: 'Send again' })).toHaveCount(0);

    // A business number connected while the frame is open: its chat offers templates without a reload.
    const wapi = await wapiChannel(request, token);
    await api(request, token, 'POST', `/v2/sandbox/channels/${wapi}/inbound`, { chat_type: 'whatsapp', chat_id: '79005550002', name: 'Eve Stone', text: 'Hi' });
    await rows(again, 'Chat list').filter({ hasText: 'Eve Stone' }).getByRole('button').first().click();
    await expect(again.getByRole('button', { name: 'Send a template message' })).toBeVisible();
    await axe(page, 'a chat of a channel connected while the frame was open');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  test('unread apart from unanswered: counted while the agent looks elsewhere, read by opening, in the title and told to the host (Russian, 320 px)', async ({ page, request, token }) => {
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001230201', 'Олег Петров', 'Добрый день');
    await whatsappCustomerWrites(request, token, wa, '79001230202', 'Нина Котова', 'Здравствуйте');
    const frame = await openFrame(page, request, token, { lang: 'ru', theme: 'light', width: 320 });
    const list = rows(frame, 'Список чатов');
    await expect(list.filter({ hasText: 'Нина Котова' })).toBeVisible();
    await expect.poll(() => heard(page, 'unread_count_changed')).toContainEqual({ total: 0, chats: 0 });

    // The bell: a sound and browser notifications, both the agent's choice.
    await frame.getByRole('button', { name: 'Уведомления' }).click();
    const settings = frame.getByRole('group', { name: 'Уведомления' });
    await expect(settings.getByRole('checkbox', { name: 'Звук при новом сообщении' })).not.toBeChecked();
    await settings.getByRole('checkbox', { name: 'Звук при новом сообщении' }).check();
    await axe(page, 'the notification settings (ru, 320)');
    await shot(page, 'notify-settings-ru-320');
    await page.keyboard.press('Escape');
    await expect(settings).toBeHidden();

    // Oleg's chat is open; Nina writes twice: her row counts 2 unread, the title says so, and so does the host.
    await list.filter({ hasText: 'Олег Петров' }).getByRole('button').first().click();
    await whatsappCustomerWrites(request, token, wa, '79001230202', 'Нина Котова', 'Вы тут?');
    await whatsappCustomerWrites(request, token, wa, '79001230202', 'Нина Котова', 'Жду ответа');
    await whatsappCustomerWrites(request, token, wa, '79001230201', 'Олег Петров', 'Спасибо');
    await expect(messages(frame, 'Сообщения').filter({ hasText: 'Спасибо' })).toBeVisible();
    await frame.getByRole('button', { name: 'Назад к списку чатов' }).click();
    const nina = list.filter({ hasText: 'Нина Котова' });
    await expect(nina.getByLabel('2 непрочитанных сообщения')).toBeVisible();
    await expect(nina.getByLabel('3 сообщения без ответа')).toBeVisible();
    // Oleg wrote while his chat was open: read as it came.
    await expect(list.filter({ hasText: 'Олег Петров' }).getByLabel(/непрочитанн/)).toHaveCount(0);
    await expect.poll(() => frame.locator('html').evaluate(() => document.title)).toBe('(2) Чаты');
    await expect.poll(() => heard(page, 'unread_count_changed')).toContainEqual({ total: 2, chats: 1 });
    await axe(page, 'the list with unread counts (ru, 320)');
    await shot(page, 'unread-ru-320');

    // Opening Nina's chat reads it; unanswered stays until someone answers.
    await nina.getByRole('button').first().click();
    await expect.poll(() => frame.locator('html').evaluate(() => document.title)).toBe('Чаты');
    await expect.poll(async () => (await heard(page, 'unread_count_changed')).at(-1)).toEqual({ total: 0, chats: 0 });
    await frame.getByRole('button', { name: 'Назад к списку чатов' }).click();
    await expect(nina.getByLabel(/непрочитанн/)).toHaveCount(0);
    await expect(nina.getByLabel('3 сообщения без ответа')).toBeVisible();
  });

  test('a new chat from the inbox by channel and number, and a card’s contact named by the CRM at once (English, dark, 960 px)', async ({ page, request, token }) => {
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001230301', 'Paul Grey', 'Hello');
    const frame = await openFrame(page, request, token, { lang: 'en', theme: 'dark', width: 960 });
    await frame.getByRole('button', { name: 'New chat' }).click();
    const dialog = frame.getByRole('dialog', { name: 'New chat' });
    // The spec's earlier tests leave channels of their own in the account: this one writes through its own.
    await dialog.getByRole('combobox', { name: 'Channel' }).selectOption(wa);
    const number = dialog.getByRole('textbox', { name: 'Phone number' });
    await number.fill('@anna');
    await dialog.getByRole('button', { name: 'Open chat' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Enter a number with the country code: 7 to 15 digits.');
    await axe(page, 'the new chat dialog with a refusal');
    await shot(page, 'new-chat-en-dark-960');
    await number.fill('+7 (916) 555-01-02');
    await dialog.getByRole('textbox', { name: 'Name (optional)' }).fill('Anna Petrova');
    await dialog.getByRole('button', { name: 'Open chat' }).click();
    await expect(dialog).toBeHidden();
    await expect(frame.getByRole('heading', { name: 'Anna Petrova' })).toBeVisible();
    await frame.getByRole('textbox', { name: 'Message' }).fill('Hello Anna, this is Acme.');
    await frame.getByRole('textbox', { name: 'Message' }).press('Enter');
    const row = rows(frame, 'Chat list').filter({ hasText: 'Anna Petrova' });
    await expect(row).toBeVisible();
    await expect(messages(frame, 'Messages').filter({ hasText: 'Hello Anna, this is Acme.' }).getByRole('img', { name: 'Delivered' })).toBeVisible();
    await shot(page, 'new-chat-sent-en-dark-960');

    // A card link names a contact who never wrote: the CRM's name shows at once, not the number.
    const card = await openFrame(page, request, token, { lang: 'en', theme: 'dark', width: 960 }, {
      scope: 'card',
      chats: [{ chat_type: 'whatsapp', chat_id: '79161234567', contact_name: 'Maria Lopez' }],
    });
    await expect(card.getByRole('heading', { name: 'Maria Lopez' })).toBeVisible();
    await expect(card.getByText('79161234567')).toBeVisible();
    await expect(card.getByRole('button', { name: 'New chat' })).toHaveCount(0);
    await shot(page, 'card-name-en-dark-960');
  });

  test('media: pictures in a viewer with zoom, next and download; a document as a card read as one link (English, dark, 960 px)', async ({ page, request, token }) => {
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001230401', 'Gail Ross', 'Can you show me the colours?');
    const frame = await openFrame(page, request, token, { lang: 'en', theme: 'dark', width: 960 });
    await rows(frame, 'Chat list').filter({ hasText: 'Gail Ross' }).getByRole('button').first().click();
    // Named "Caption" while a file waits.
    const box = frame.getByRole('textbox', { name: /^(Message|Caption)$/ });
    const paste = (name: string, base64: string, type: string) =>
      box.evaluate(
        (el, file) => {
          const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([bytes], file.name, { type: file.type }));
          el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        },
        { name, base64, type },
      );
    for (const name of ['navy.png', 'teal.png']) {
      await paste(name, RED, 'image/png');
      await box.press('Enter');
      await expect(messages(frame, 'Messages').filter({ has: frame.getByRole('img', { name }) }).getByRole('img', { name: 'Delivered' })).toBeVisible();
    }
    // A document, dropped on the composer.
    await frame.locator('form').filter({ has: box }).evaluate((form, pdf) => {
      const data = new DataTransfer();
      data.items.add(new File([pdf], 'price-list.pdf', { type: 'application/pdf' }));
      form.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      form.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, PDF);
    await expect(frame.getByRole('group', { name: 'File to send: price-list.pdf' })).toBeVisible();
    await box.press('Enter');
    const doc = frame.getByRole('link', { name: /^Download price-list\.pdf\s*,\s*PDF document, \d+ B$/ });
    await expect(doc).toBeVisible();
    await expect(doc).toHaveAttribute('download', 'price-list.pdf');

    // The first picture opens in the viewer: zoom in and back, the next one, download, and Escape back to the message.
    const first = frame.getByRole('button', { name: 'Open navy.png' });
    await first.click();
    const viewer = frame.getByRole('dialog', { name: 'Viewing navy.png' });
    await expect(viewer).toContainText('1 of 2');
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect(viewer.getByRole('button', { name: '150%, fit to the window' })).toBeVisible();
    const fitted = await viewer.getByRole('img', { name: 'navy.png' }).evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width);
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await viewer.getByRole('img', { name: 'navy.png' }).evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width);
    expect(zoomed).toBeGreaterThan(fitted);
    await axe(page, 'the media viewer');
    await shot(page, 'viewer-en-dark-960');
    await page.keyboard.press('ArrowRight');
    await expect(frame.getByRole('dialog', { name: 'Viewing teal.png' })).toContainText('2 of 2');
    await expect(frame.getByRole('dialog', { name: 'Viewing teal.png' }).getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'teal.png');
    await expect(frame.getByRole('dialog', { name: 'Viewing teal.png' }).getByRole('button', { name: 'Next' })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(frame.getByRole('dialog')).toHaveCount(0);
    await expect(first).toBeFocused();
    await axe(page, 'a chat with pictures and a document');
    await shot(page, 'media-en-dark-960');
  });

  test('emoji: the picker loads on first open, in the frame’s language, and puts the emoji at the caret (Russian, 320 px)', async ({ page, request, token }) => {
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001230501', 'Ирина Белова', 'Спасибо!');
    const emojiData: string[] = [];
    page.on('request', (r) => {
      if (/\/emoji\/|EmojiPanel/.test(new URL(r.url()).pathname)) emojiData.push(new URL(r.url()).pathname);
    });
    const frame = await openFrame(page, request, token, { lang: 'ru', theme: 'light', width: 320 });
    await rows(frame, 'Список чатов').filter({ hasText: 'Ирина Белова' }).getByRole('button').first().click();
    const box = frame.getByRole('textbox', { name: 'Сообщение' });
    await box.fill('Рады помочь ');
    // Nothing of the picker is loaded before it is opened.
    expect(emojiData).toEqual([]);
    await frame.getByRole('button', { name: 'Эмодзи' }).click();
    const picker = frame.getByRole('dialog', { name: 'Выбор эмодзи' });
    await picker.getByRole('searchbox', { name: 'Найти эмодзи' }).fill('сердце');
    const heart = picker.getByRole('gridcell').first().or(picker.getByRole('button', { name: /сердце/ }).first()).first();
    await expect(heart).toBeVisible();
    expect(emojiData.some((p) => p.endsWith('/emoji/ru/data.json'))).toBe(true);
    await axe(page, 'the emoji picker (ru, 320)');
    await shot(page, 'emoji-ru-320');
    await heart.click();
    await expect(box).toHaveValue(/^Рады помочь \p{Extended_Pictographic}/u);
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
  });
});
