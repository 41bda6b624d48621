import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, dealPage, startCrmPage, type CrmPage } from './crm-page.ts';
import { expect, test } from './fixtures.ts';

/**
 * The chat screen's ways to send beyond words, on a business-API (wapi) channel: the buttons a CRM's message put
 * before the customer, an approved template with its values filled in (in English and in Russian), and a file.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp';
const CUSTOMER = '79001234567';

test.beforeAll(async () => {
  crm = await startCrmPage(dealPage);
});
test.afterAll(async () => {
  await crm.close();
});

/** A wapi number of the sandbox, authorized at the sandbox's page as the provider's would be. */
async function wapiChannel(request: APIRequestContext, token: string): Promise<string> {
  const [created] = await api<{ channel_id: string; url: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'wapi', credentials: {} });
  expect((await request.get(created!.url)).status()).toBe(200);
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${created!.channel_id}`))[0]!.status).toBe('active');
  return created!.channel_id;
}

/** A template submitted on the channel; approved unless `status` says otherwise. */
async function template(request: APIRequestContext, token: string, channelId: string, name: string, status = 'APPROVED'): Promise<string> {
  const created = await api<{ id: string }>(request, token, 'POST', `/v2/sandbox/channels/${channelId}/templates`, {
    name,
    language: 'en',
    category: 'UTILITY',
    components: [
      { type: 'header', text: 'Order {{1}}' },
      { type: 'body', text: 'Hello {{2}}, your order {{1}} is ready for pickup.' },
      { type: 'footer', text: 'Acme store' },
      { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Thanks' }] },
    ],
  });
  await api(request, token, 'POST', `/v2/sandbox/templates/${created.id}/moderation`, { status });
  return created.id;
}

/** Opens the chat frame from a new link (a link is used once) and the chat with `contact` in it. */
async function openChat(page: Page, request: APIRequestContext, token: string, lang: 'en' | 'ru', contact: string): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1' }, scope: 'global', options: { lang } })).url);
  await page.setViewportSize({ width: 960, height: 640 });
  await page.goto(`${crm.origin}/deal/${lang}`);
  const frame = page.frameLocator('#widget');
  await frame.getByRole('list', { name: lang === 'en' ? 'Chat list' : 'Список чатов' }).getByRole('listitem').filter({ hasText: contact }).getByRole('button').first().click();
  return frame;
}

test.describe('chat composer on a business-API channel', () => {
  test('shows the buttons a message carries, and sends an approved template with its values', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const channelId = await wapiChannel(request, token);
    const orderReady = await template(request, token, channelId, 'order_ready');
    await template(request, token, channelId, 'still_in_review', 'PENDING');
    const recipient = { chat_type: 'whatsapp', chat_id: CUSTOMER };
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { ...recipient, name: 'Dana', text: 'Is my order ready?' });
    await api(request, token, 'POST', '/v2/messages', {
      channel_id: channelId,
      recipient,
      text: 'How was the delivery?',
      keyboard: { buttons: [{ text: 'Good', payload: 'good' }, { text: 'Bad', payload: 'bad' }] },
    });

    const frame = await openChat(page, request, token, 'en', 'Dana');
    const messages = frame.getByRole('list', { name: 'Messages' });
    const asked = messages.getByRole('listitem').filter({ hasText: 'How was the delivery?' });
    await expect(asked.getByRole('group', { name: 'Buttons under the message' })).toHaveText(/Good\s*Bad/);
    await shot(page, 'keyboard');
    // Dana wrote just now: the reply window is open, nothing to say.
    await expect(frame.getByText(/only a template can reach them/)).toHaveCount(0);

    // The form lists approved templates only, and sends once every value is given.
    await frame.getByRole('button', { name: 'Send a template message' }).click();
    const form = frame.getByRole('region', { name: 'Templates' });
    await expect(form.getByRole('list', { name: 'Approved templates' }).getByRole('listitem')).toHaveCount(1);
    await form.getByRole('button', { name: /order_ready/ }).click();
    await expect(form).toContainText('Hello {{2}}, your order {{1}} is ready for pickup.');
    const send = form.getByRole('button', { name: 'Send template' });
    await form.getByRole('textbox', { name: 'Value {{1}}' }).fill('A-17');
    await expect(send).toBeDisabled();
    await form.getByRole('textbox', { name: 'Value {{2}}' }).fill('Dana');
    await expect(form).toContainText('Order A-17');
    await expect(form).toContainText('Hello Dana, your order A-17 is ready for pickup.');
    await expect(form.getByRole('group', { name: 'Buttons' })).toHaveText('Thanks');
    await shot(page, 'template-form');
    await send.click();
    await expect(form).toBeHidden();

    const sent = messages.getByRole('listitem').filter({ hasText: 'Hello Dana, your order A-17 is ready for pickup.' });
    await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();
    await expect(frame.getByRole('textbox', { name: 'Message' })).toBeVisible();
    await shot(page, 'template-sent');

    // Read again from the gateway, the message is a template with the words it filled in.
    const again = await openChat(page, request, token, 'en', 'Dana');
    const stored = again.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Order A-17' });
    await expect(stored).toContainText('Hello Dana, your order A-17 is ready for pickup.');
    await expect(stored.getByText('Template', { exact: true })).toBeVisible();

    // A customer who never wrote can be reached by a template only, and the frame says so before the agent writes.
    await api(request, token, 'POST', '/v2/messages', {
      channel_id: channelId,
      recipient: { chat_type: 'whatsapp', chat_id: '79005550001', crm_contact_name: 'Eve' },
      template: { id: orderReady, values: ['B-2', 'Eve'] },
    });
    await again.getByRole('list', { name: 'Chat list' }).getByRole('listitem').filter({ hasText: 'Eve' }).getByRole('button').first().click();
    await expect(again.getByText('The customer has not written in the last 24 hours: only a template can reach them now.')).toBeVisible();
    await expect(again.getByRole('button', { name: 'Send a template message' })).toBeVisible();
    await shot(page, 'window-closed');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  test('speaks Russian in the template form', async ({ page, request, token }) => {
    const channelId = await wapiChannel(request, token);
    await template(request, token, channelId, 'order_ready_ru');
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: '79007654321', name: 'Olga', text: 'Привет' });
    const frame = await openChat(page, request, token, 'ru', 'Olga');
    await frame.getByRole('button', { name: 'Отправить сообщение по шаблону' }).click();
    const form = frame.getByRole('region', { name: 'Шаблоны' });
    await form.getByRole('button', { name: /order_ready_ru/ }).click();
    await expect(form.getByRole('textbox', { name: 'Значение {{1}}' })).toBeFocused();
    await expect(form).toContainText('Чтобы отправить, заполните все значения.');
    await expect(form.getByRole('button', { name: 'Отправить шаблон' })).toBeDisabled();
    await shot(page, 'template-form-ru');
    await form.getByRole('button', { name: '← Все шаблоны' }).click();
    await expect(form.getByRole('list', { name: 'Одобренные шаблоны' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
  });

  test('attaches a file: waits in the composer, then shown at once, uploaded, sent, and opened from the history', async ({ page, request, token }) => {
    const channelId = await wapiChannel(request, token);
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'whatsapp', chat_id: '79001110009', name: 'Fay', text: 'Send me the invoice' });
    const frame = await openChat(page, request, token, 'en', 'Fay');
    const picker = frame.locator('input[type=file]');
    const pdf = Buffer.from('%PDF-1.7 invoice 42');
    await picker.setInputFiles({ name: 'invoice-42.pdf', mimeType: 'application/pdf', buffer: pdf });
    // The file waits beside the text box, which now takes its caption, until the agent sends it.
    await expect(frame.getByRole('group', { name: 'File to send: invoice-42.pdf' })).toBeVisible();
    await frame.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = frame.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'invoice-42.pdf' });
    await expect(sent.getByRole('img', { name: 'Delivered' })).toBeVisible();
    const link = sent.getByRole('link', { name: /invoice-42\.pdf/ });
    const file = await request.get((await link.getAttribute('href'))!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect(await file.body()).toEqual(pdf);
    const row = frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem').filter({ hasText: 'Fay' });
    await expect(row).toContainText('You: invoice-42.pdf');
    await expect(row.locator('svg.gw-paperclip')).toHaveCount(1);
    await shot(page, 'file-sent');

    // A file larger than a message may carry is refused in the frame, before anything is uploaded.
    await picker.setInputFiles({ name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(20 * 1024 * 1024 + 1) });
    await frame.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(frame.getByRole('alert')).toContainText('huge.bin is larger than 20 MB');
    await expect(frame.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(2);
  });
});

test.describe('chat composer on an Instagram channel', () => {
  test('says a customer who has not written can be reached only once they write, and stops saying it when they do', async ({ page, request, token }) => {
    const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', {
      transport: 'instAPI',
      credentials: { username: 'acme.shop', page_id: '1', inst_id: '17841', user_token: 'EAAB' },
    });
    const channelId = created!.channel_id;
    await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
    // The CRM writes first: Instagram refuses it, and the chat is there with nothing from the customer.
    await api(request, token, 'POST', '/v2/messages', { channel_id: channelId, recipient: { chat_type: 'instagram', chat_id: 'gina.k', crm_contact_name: 'Gina' }, text: 'Your order shipped' });
    const frame = await openChat(page, request, token, 'en', 'Gina');
    const notice = frame.getByText('The customer has not written in the last 24 hours: a message reaches them only once they write again.');
    await expect(notice).toBeVisible();
    await expect(frame.getByRole('button', { name: 'Send a template message' })).toBeHidden();
    await shot(page, 'window-closed-instagram');

    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/inbound`, { chat_type: 'instagram', chat_id: 'gina.k', name: 'Gina', text: 'Thanks! When will it arrive?' });
    await expect(frame.getByRole('list', { name: 'Messages' }).getByText('Thanks! When will it arrive?')).toBeVisible();
    await expect(notice).toBeHidden();
  });
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/chat-${name}.png` });
}
