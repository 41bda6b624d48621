import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, frameOnlyCrmForFile, whatsappChannel } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * A file and its caption as one message, both ways: a customer's picture with words is one bubble (the words under
 * it), and the agent's file with a caption goes as one message where WhatsApp shows a caption (a document), and as
 * the file then the words where it shows none (a sound). English dark 960 px, Russian 320 px, Spanish light.
 */
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';
const crm = frameOnlyCrmForFile(SHOTS);

type Look = { lang: 'en' | 'ru' | 'es'; theme: 'light' | 'dark'; width: number };
const names = {
  en: { list: 'Chat list', messages: 'Messages', caption: 'Caption', send: 'Send' },
  ru: { list: 'Список чатов', messages: 'Сообщения', caption: 'Подпись', send: 'Отправить' },
  es: { list: 'Lista de chats', messages: 'Mensajes', caption: 'Leyenda', send: 'Enviar' },
} as const;


async function openChat(page: Page, request: APIRequestContext, token: string, look: Look, contact: string): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', options: { lang: look.lang, theme: look.theme } })).url);
  await page.setViewportSize({ width: look.width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  const frame = page.frameLocator('#widget');
  await frame.getByRole('list', { name: names[look.lang].list }).getByRole('listitem').filter({ hasText: contact }).getByRole('button').first().click();
  return frame;
}

const bubbles = (frame: FrameLocator, look: Look) => frame.getByRole('list', { name: names[look.lang].messages }).getByRole('listitem');
const shot = (page: Page, name: string) => paintedScreenshot(page, `${SHOTS}/captions-${name}.png`);

/** A customer of the sandbox sends a picture with words: recorded as two messages, as WhatsApp's are. */
const customerSendsPicture = (request: APIRequestContext, token: string, channelId: string, chatId: string, name: string, url: string, text: string) =>
  api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: chatId, name, attachment: { url, name: 'sofa.png', mimetype: 'image/png' }, text });

/** The agent picks a file, writes its caption and sends it. */
async function sendWithCaption(frame: FrameLocator, look: Look, file: { name: string; mimeType: string; buffer: Buffer }, caption: string) {
  await frame.locator('input[type=file]').setInputFiles(file);
  await frame.getByRole('textbox', { name: names[look.lang].caption }).fill(caption);
  await frame.getByRole('button', { name: names[look.lang].send, exact: true }).click();
}

const looks: Look[] = [
  { lang: 'en', theme: 'dark', width: 960 },
  { lang: 'ru', theme: 'light', width: 320 },
  { lang: 'es', theme: 'light', width: 960 },
];

test.describe('a file and its caption in one message', () => {
  for (const [i, look] of looks.entries()) {
    test(`both ways (${look.lang}, ${look.theme}, ${look.width} px)`, async ({ page, request, token, gateway }) => {
      const channelId = await whatsappChannel(request, token);
      const chatId = `7900123050${i}`;
      const contact = `Gail Ross ${i}`;
      await customerSendsPicture(request, token, channelId, chatId, contact, `${gateway.baseURL}/sandbox/phone/sample.png`, 'Is this sofa the blue one?');
      const frame = await openChat(page, request, token, look, contact);

      // The customer's picture and its words: one bubble, the words under the picture.
      const inbound = bubbles(frame, look).filter({ has: frame.getByRole('img', { name: 'sofa.png' }) });
      await expect(inbound).toContainText('Is this sofa the blue one?');
      await expect(bubbles(frame, look)).toHaveCount(1);

      // The agent's document with a caption: one message.
      await sendWithCaption(frame, look, { name: 'offer-42.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 offer 42') }, 'Here is the offer.');
      const offer = bubbles(frame, look).filter({ hasText: 'offer-42.pdf' });
      await expect(offer).toContainText('Here is the offer.');
      await expect(offer.getByRole('img', { name: /Delivered|Доставлено|Entregado/ })).toBeVisible();
      await expect(bubbles(frame, look)).toHaveCount(2);

      // A sound takes no caption on WhatsApp: the words follow as a message of their own.
      await sendWithCaption(frame, look, { name: 'note.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('ID3 a short note') }, 'Listen to this.');
      await expect(bubbles(frame, look)).toHaveCount(4);
      await expect(bubbles(frame, look).last()).toHaveText(/Listen to this\./);
      await expect(bubbles(frame, look).nth(2)).not.toContainText('Listen to this.');
      await axe(page, `a file and its caption (${look.lang})`);
      await shot(page, `${look.lang}-${look.theme}-${look.width}`);

      // Read again from the gateway: the same bubbles.
      await page.reload();
      const again = await openChat(page, request, token, look, contact);
      await expect(bubbles(again, look)).toHaveCount(4);
      await expect(bubbles(again, look).first()).toContainText('Is this sofa the blue one?');
      await expect(bubbles(again, look).filter({ hasText: 'offer-42.pdf' })).toContainText('Here is the offer.');
    });
  }

  test('the sandbox phone shows a file and its caption as one message, the customer’s and the agent’s', async ({ page, context, request, token, gateway, baseURL }) => {
    const look: Look = { lang: 'en', theme: 'dark', width: 960 };
    const channelId = await whatsappChannel(request, token);
    await customerSendsPicture(request, token, channelId, '79001230598', 'Ida Roe', `${gateway.baseURL}/sandbox/phone/sample.png`, 'Which one?');
    const frame = await openChat(page, request, token, look, 'Ida Roe');
    await sendWithCaption(frame, look, { name: 'offer-43.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 offer 43') }, 'The offer, as promised.');
    await expect(bubbles(frame, look).filter({ hasText: 'offer-43.pdf' })).toContainText('The offer, as promised.');

    const phone = await context.newPage();
    await phone.setViewportSize({ width: 420, height: 900 });
    // The channel and the customer are chosen while the phone's first read of another chat is still under way, and
    // before its news feed is open (which would read the page again anyway): the phone reads again after that first
    // read, by itself, as it must when the feed tells of a change during a read.
    const release = { read: () => {}, feed: () => {} };
    const readHeld = new Promise<void>((resolve) => (release.read = resolve));
    const feedHeld = new Promise<void>((resolve) => (release.feed = resolve));
    let reads = 0;
    await phone.route('**/v2/sandbox/feed', async (route) => (await feedHeld, route.continue()));
    await phone.route('**/v2/sandbox/channels/*/chats/**', async (route) => {
      if (reads++ === 0) await readHeld;
      await route.continue();
    });
    await phone.goto(`${baseURL}/sandbox/phone/?customer=79001230000#token=${token}`);
    await expect.poll(() => reads).toBeGreaterThan(0);
    await phone.getByLabel('The channel this phone talks to').selectOption(channelId);
    await phone.getByLabel('Customer (number or chat id)').fill('79001230598');
    await phone.getByLabel('Customer (number or chat id)').dispatchEvent('change');
    release.read();
    const onPhone = phone.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    // The agent's document went as one message with its caption.
    const offer = onPhone.filter({ hasText: 'offer-43.pdf' });
    await expect(offer).toContainText('The offer, as promised.');
    release.feed();
    // The customer's picture and its words, recorded as two messages, are drawn as one.
    await expect(onPhone.filter({ hasText: 'sofa.png' })).toContainText('Which one?');
    await expect(onPhone).toHaveCount(2);
    const phoneAxe = await new AxeBuilder({ page: phone }).include('#phone').analyze();
    expect(phoneAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await onPhone.last().scrollIntoViewIfNeeded();
    await paintedScreenshot(phone, `${SHOTS}/captions-phone.png`);
  });

  test('a customer’s caption that arrives while the chat is open joins its picture', async ({ page, request, token, gateway }) => {
    const look: Look = { lang: 'en', theme: 'dark', width: 960 };
    const channelId = await whatsappChannel(request, token);
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: '79001230599', name: 'Hal Park', text: 'Hi' });
    const frame = await openChat(page, request, token, look, 'Hal Park');
    await expect(bubbles(frame, look)).toHaveCount(1);
    await customerSendsPicture(request, token, channelId, '79001230599', 'Hal Park', `${gateway.baseURL}/sandbox/phone/sample.png`, 'This one?');
    const picture = bubbles(frame, look).filter({ has: frame.getByRole('img', { name: 'sofa.png' }) });
    await expect(picture).toContainText('This one?');
    await expect(bubbles(frame, look)).toHaveCount(2);

    // Another customer's picture with words, while this chat is open: one unread message in their row, and in the title.
    await customerSendsPicture(request, token, channelId, '79001230597', 'Ivy Moss', `${gateway.baseURL}/sandbox/phone/sample.png`, 'And this one?');
    const ivy = frame.getByRole('list', { name: names.en.list }).getByRole('listitem').filter({ hasText: 'Ivy Moss' });
    await expect(ivy.getByLabel('1 unread message')).toBeVisible();
    await customerSendsPicture(request, token, channelId, '79001230597', 'Ivy Moss', `${gateway.baseURL}/sandbox/phone/sample.png`, 'Or this?');
    await expect(ivy.getByLabel('2 unread messages')).toBeVisible();
  });
});
