import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, connect, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The admin's channel-connect screen in a CRM page: connecting by QR, by pairing code, with a two-factor
 * password, by bot token and at the provider, reconnecting and deleting, with the sandbox as the phone.
 * The CRM page lives on an origin of its own and fills the window, so the frame is as wide as the viewport.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/connect-shots';
const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(
    (frameUrl) => `<!doctype html><title>CRM</title>
       <script>window.received = []; addEventListener('message', (e) => window.received.push(e.data));</script>
       <body style="margin:0">
         <iframe id="widget" title="Channels" src="${frameUrl}" style="display:block;width:100vw;height:100vh;border:0"></iframe>
       </body>`,
  );
});
test.afterAll(async () => {
  await crm.close();
});

interface ChannelsLink {
  transport?: string;
  channel_id?: string;
  options?: { lang?: string; theme?: 'light' | 'dark' | 'auto' };
}

/** Opens the connect frame from a channels link in the CRM page; it is open once the list's title shows. */
async function openFrame(page: Page, request: APIRequestContext, token: string, link: ChannelsLink, listTitle = 'Your channels'): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/channels', { user: { id: 'admin-1', name: 'Ada' }, ...link })).url);
  await page.setViewportSize({ width: 1000, height: 760 });
  await page.goto(`${crm.origin}/settings/channels`);
  const frame = page.frameLocator('#widget');
  await expect(frame.getByRole('heading', { name: listTitle })).toBeVisible();
  return frame;
}

/**
 * The step as it looks in a narrow side panel (400 px) and in a wide settings page (1000 px), each with no axe-core
 * violation of impact serious or critical inside the frame.
 */
async function shot(page: Page, name: string): Promise<void> {
  for (const width of [400, 1000]) {
    await page.setViewportSize({ width, height: 760 });
    await paintedScreenshot(page, `${SHOTS}/${name}-${width}.png`);
    await axe(page, `${name} at ${width} px`);
  }
}

// The spec file shares one gateway: every test starts from an account without channels.
test.beforeEach(async ({ request, token }) => {
  for (const c of await api<{ channel_id: string }[]>(request, token, 'GET', '/v2/channels')) {
    await api(request, token, 'DELETE', `/v2/channels/${c.channel_id}?delete_chats=true`);
  }
});

const rows = (frame: FrameLocator, list = 'Channels') => frame.getByRole('list', { name: list }).getByRole('listitem');
const panel = (frame: FrameLocator) => frame.getByRole('region').filter({ has: frame.locator('#gw-connect-panel-title') });
const scan = (request: APIRequestContext, token: string, channelId: string, phone?: string) =>
  api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/scan`, phone ? { phone } : {});

test.describe('channel-connect screen', () => {
  test('connects whatsapp by QR and shows it active in the list', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const frame = await openFrame(page, request, token, { transport: 'whatsapp' });

    // The link's transport is preselected; a QR transport asks for nothing.
    await expect(frame.getByRole('heading', { name: 'Connect a channel' })).toBeVisible();
    await expect(frame.getByRole('radio', { name: 'WhatsApp', exact: true })).toBeChecked();
    await expect(frame.getByText('No channels yet. Connect the first one.')).toBeVisible();
    await shot(page, '01-form');

    const channelId = await connect(page, frame, 'Connect WhatsApp');
    const qr = frame.getByRole('img', { name: 'QR code to scan with WhatsApp' });
    await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(rows(frame)).toHaveCount(1);
    await expect(rows(frame).first()).toContainText('Waiting for the QR code to be scanned');
    await expect(frame.getByRole('heading', { name: 'WhatsApp' })).toBeFocused();
    await shot(page, '02-qr');

    await scan(request, token, channelId, '79001112233');
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(panel(frame)).toContainText('+79001112233');
    await expect(rows(frame).first()).toContainText('Connected');
    await expect(rows(frame).first()).toContainText('+79001112233');
    await shot(page, '03-connected');

    // The host page heard it (embed.ts posts it when the stream says active).
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { received: { type?: string; payload?: unknown }[] }).received.filter((m) => m.type === 'channel_connected')))
      .toEqual([expect.objectContaining({ payload: { channel_id: channelId, transport: 'whatsapp' } })]);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  test('links whatsapp with a pairing code instead of the QR', async ({ page, request, token }) => {
    const frame = await openFrame(page, request, token, { transport: 'whatsapp' });
    const channelId = await connect(page, frame, 'Connect WhatsApp');
    await expect(frame.getByRole('img', { name: /QR code/ })).toBeVisible();
    await frame.getByRole('button', { name: 'Link with phone number instead' }).click();

    const phone = frame.getByRole('textbox', { name: 'Phone number of the WhatsApp account' });
    await expect(phone).toBeFocused();
    await phone.fill('12');
    await frame.getByRole('button', { name: 'Get a code' }).click();
    await expect(frame.getByText(/Enter the full international number/)).toBeVisible();
    await phone.fill('+7 (900) 222-33-44');
    await frame.getByRole('button', { name: 'Get a code' }).click();
    const code = frame.getByLabel(/^Pairing code:/);
    await expect(code).toHaveText(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    await expect(panel(frame)).toContainText('+79002223344');
    await shot(page, '04-pairing-code');

    // The phone confirms the code: the pairing phone is the one that links.
    await scan(request, token, channelId);
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(rows(frame).first()).toContainText('+79002223344');
  });

  test('asks for the two-factor password, says when it is wrong, and connects with the right one', async ({ page, request, token }) => {
    await api(request, token, 'PUT', '/v2/sandbox/phones/79005550000/two-factor', { password: 'correct horse' });
    const frame = await openFrame(page, request, token, { transport: 'tgapi' });
    const channelId = await connect(page, frame, 'Connect Telegram account');
    await expect(frame.getByRole('img', { name: 'QR code to scan with Telegram' })).toBeVisible();
    await scan(request, token, channelId, '79005550000');

    const password = frame.getByLabel('Two-factor password');
    await expect(password).toBeFocused();
    await expect(rows(frame).first()).toContainText('Waiting for the two-factor password');
    await shot(page, '05-two-factor');

    await password.fill('wrong horse');
    await frame.getByRole('button', { name: 'Confirm password' }).click();
    await expect(panel(frame).getByRole('alert')).toHaveText('Wrong password. Check the password and try again.');
    await expect(password).toHaveValue('');
    await expect(password).toBeFocused();
    await shot(page, '06-two-factor-wrong');

    await password.fill('correct horse');
    await frame.getByRole('button', { name: 'Confirm password' }).click();
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(rows(frame).first()).toContainText('Connected');
  });

  test('refuses a bad telegram bot token plainly and connects with a good one', async ({ page, request, token }) => {
    const frame = await openFrame(page, request, token, { transport: 'telegram' });
    await expect(frame.getByRole('radio', { name: 'Telegram bot', exact: true })).toBeChecked();
    const input = frame.getByLabel('Bot token', { exact: true });

    await frame.getByRole('button', { name: 'Connect Telegram bot' }).click();
    await expect(frame.getByText('Enter the bot token.')).toBeVisible();
    await expect(input).toBeFocused();

    await input.fill('12345:not-a-token');
    await frame.getByRole('button', { name: 'Connect Telegram bot' }).click();
    await expect(panel(frame).getByRole('alert')).toHaveText('The messenger refused the credentials');
    await expect(frame.getByText('Bot token is not a bot token of the form <digits>:<35 characters>.')).toBeVisible();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toBeFocused();
    await expect(rows(frame)).toHaveCount(0);
    await shot(page, '07-token-refused');

    await input.fill(TELEGRAM_TOKEN);
    await connect(page, frame, 'Connect Telegram bot');
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(rows(frame).first()).toContainText('@sandbox_123456789_bot');
    await expect(rows(frame).first()).toContainText('Connected');
    await shot(page, '08-token-connected');
  });

  test('sends a wapi number and a VK community to be authorized, and shows them connected', async ({ page, request, token }) => {
    const frame = await openFrame(page, request, token, {});
    await frame.getByRole('radio', { name: 'WhatsApp Business API', exact: true }).check();
    await connect(page, frame, 'Connect WhatsApp Business API');
    const link = frame.getByRole('link', { name: /Continue at the provider/ });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(rows(frame).first()).toContainText('Waiting for authorization at the provider');
    await shot(page, '09-provider');

    // The admin follows the link in another tab; the frame hears the result from the stream.
    const authorized = await request.get((await link.getAttribute('href'))!);
    expect(authorized.status()).toBe(200);
    await expect(panel(frame).getByRole('status')).toContainText('Connected');

    // A VK community connects only here, the same way: at VK's page.
    await frame.getByRole('button', { name: 'Connect another channel' }).click();
    await expect(frame.getByRole('heading', { name: 'Connect a channel' })).toBeFocused();
    await frame.getByRole('radio', { name: 'VK', exact: true }).check();
    await connect(page, frame, 'Connect VK');
    const vk = frame.getByRole('link', { name: /Continue at VK/ });
    // The admin goes to VK's tab by that link, so only once it shows.
    await expect(vk).toBeVisible();
    // Shown again after the admin was in VK's tab, the frame reads the channel anew: each step at VK moves its link on.
    const reread = page.waitForRequest((r) => r.method() === 'GET' && /^\/bff\/channels\/[0-9a-f-]{36}$/.test(new URL(r.url()).pathname));
    await frame.locator('body').evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await reread;
    expect((await request.get((await vk.getAttribute('href'))!)).status()).toBe(200);
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(rows(frame)).toHaveCount(2);
    await expect(rows(frame).filter({ hasText: 'VK' })).toContainText('Connected');
  });

  test('reconnects a disabled channel straight from its link, then deletes it with a confirmation', async ({ page, request, token }) => {
    const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'whatsapp', credentials: {} });
    const channelId = created!.channel_id;
    await scan(request, token, channelId, '79007778899');
    await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/logout`);

    // The frame for that channel reinits it at once: a new QR to scan.
    const frame = await openFrame(page, request, token, { channel_id: channelId });
    await expect(frame.getByRole('img', { name: 'QR code to scan with WhatsApp' })).toBeVisible();
    await expect(rows(frame).first()).toContainText('Waiting for the QR code to be scanned');

    // The phone logs out again: the list offers Reconnect.
    await api(request, token, 'POST', `/v2/sandbox/channels/${channelId}/logout`);
    await expect(rows(frame).first()).toContainText('Off: signed out on the phone');
    await expect(panel(frame)).toContainText('Off: signed out on the phone.');
    await shot(page, '10-disabled');

    await rows(frame).first().getByRole('button', { name: 'Reconnect' }).click();
    await expect(frame.getByRole('img', { name: 'QR code to scan with WhatsApp' })).toBeVisible();
    await expect(rows(frame).first()).toContainText('Waiting for the QR code to be scanned');

    // Delete asks first, keeps the history unless told, and the channel leaves the list.
    await rows(frame).first().getByRole('button', { name: 'Delete' }).click();
    const confirm = rows(frame).first().getByRole('group', { name: 'Delete this WhatsApp channel?' });
    const alsoChats = confirm.getByRole('checkbox', { name: /Also delete its chats and messages/ });
    await expect(alsoChats).not.toBeChecked();
    await expect(alsoChats).toBeFocused();
    await shot(page, '11-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(rows(frame).first().getByRole('button', { name: 'Delete' })).toBeFocused();
    await rows(frame).first().getByRole('button', { name: 'Delete' }).click();
    await rows(frame).first().getByRole('button', { name: 'Delete channel' }).click();
    await expect(rows(frame)).toHaveCount(0);
    await expect(panel(frame)).toContainText('This channel was deleted.');
    expect(await api<unknown[]>(request, token, 'GET', '/v2/channels')).toEqual([]);
    await shot(page, '12-deleted');
  });

  test('shows a personal number’s sending pace and saves quiet hours', async ({ page, request, token }) => {
    const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'whatsapp', credentials: {} });
    const channelId = created!.channel_id;
    await scan(request, token, channelId, '79007778800');
    await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`))[0]!.status).toBe('active');
    const frame = await openFrame(page, request, token, {});
    await rows(frame).first().getByRole('button', { name: 'Sending pace' }).click();
    const form = frame.getByRole('form', { name: 'Sending pace' });
    await expect(form.getByTestId('pacing-today')).toContainText('Day 1 since linking: 0 of 200 messages, 0 of 20 new chats today.');
    await form.getByLabel('Time zone').fill('Europe/Moscow');
    await form.getByRole('checkbox', { name: 'Quiet hours for new chats' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Saved.')).toBeVisible();
    const pacing = await api<{ profile: { time_zone: string; quiet_hours: { from: string; to: string } | null } }>(request, token, 'GET', `/v2/channels/${channelId}/pacing`);
    expect(pacing.profile).toMatchObject({ time_zone: 'Europe/Moscow', quiet_hours: { from: '22:00', to: '08:00' } });
    await shot(page, 'pacing');
  });

  test('offers a new code when the QR is gone', async ({ page, request, token }) => {
    const [created] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'viber', credentials: {} });
    // The frame opens after the codes ran out: the gateway has no live code to show.
    await page.route('**/bff/channels/*/qr', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'CHANNEL_QR_EXPIRED', description: 'No QR code is live; reinit the channel first' }) }),
    );
    const frame = await openFrame(page, request, token, { channel_id: created!.channel_id });
    const again = frame.getByRole('button', { name: 'Show a new code' });
    await expect(again).toBeVisible();
    await expect(frame.getByText('The code was not scanned in time.')).toBeVisible();
    await shot(page, '13-new-code');

    await page.unroute('**/bff/channels/*/qr');
    await again.click();
    await expect(frame.getByRole('img', { name: 'QR code to scan with Viber' })).toBeVisible();
  });

  test('speaks Russian when the link asks for it', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const frame = await openFrame(page, request, token, { transport: 'whatsapp', options: { lang: 'ru' } }, 'Ваши каналы');
    await expect(frame.locator('.gw-connect')).toHaveAttribute('lang', 'ru');

    await expect(frame.getByRole('heading', { name: 'Подключить канал' })).toBeVisible();
    await expect(frame.getByRole('group', { name: 'Мессенджер' })).toBeVisible();
    await expect(frame.getByRole('radio', { name: 'WhatsApp', exact: true })).toBeChecked();
    await expect(frame.getByRole('radio', { name: 'Telegram-бот', exact: true })).toBeVisible();
    await expect(frame.getByText('Каналов пока нет. Подключите первый.')).toBeVisible();
    await shot(page, '14-form-ru');

    const channelId = await connect(page, frame, 'Подключить WhatsApp');
    await expect(frame.getByRole('img', { name: 'QR-код для сканирования в приложении WhatsApp' })).toBeVisible();
    await expect(rows(frame, 'Каналы')).toHaveCount(1);
    await expect(rows(frame, 'Каналы').first()).toContainText('Ожидает сканирования QR-кода');
    await expect(frame.getByRole('button', { name: 'Привязать по номеру телефона' })).toBeVisible();
    await shot(page, '15-qr-ru');

    await scan(request, token, channelId, '79001112233');
    await expect(panel(frame).getByRole('status')).toContainText('Подключён');
    await expect(rows(frame, 'Каналы').first()).toContainText('Подключён');
    await expect(rows(frame, 'Каналы').first().getByRole('button', { name: 'Удалить' })).toBeVisible();
    await shot(page, '16-connected-ru');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });
});
