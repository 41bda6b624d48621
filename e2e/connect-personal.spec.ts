import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { renderQr } from '../src/server/transports/qr-image.ts';
import { api, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, connect, paintedScreenshot } from './frame-checks.ts';
import { expect, test, type RunningGateway } from './fixtures.ts';

/**
 * Connecting personal accounts in the connect frame, with the live drivers: personal WhatsApp (QR, pairing code,
 * active) and a personal Telegram account (QR, two-factor password, connected). The gateway runs the real drivers
 * over fakes of their libraries (src/server/testing/personal-accounts-gateway.ts); the test plays the phone through
 * the fakes' control server.
 */
test.use({ gatewayEntry: 'src/server/testing/personal-accounts-gateway.ts' });

let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/connect-personal-shots';
/** The Telegram account the fake's phone scans with (personal-accounts-gateway.ts). */
const TELEGRAM_ACCOUNT = 'Acme Support · +79990001122 · @acme_support';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(
    (frameUrl) => `<!doctype html><title>CRM</title>
       <body style="margin:0">
         <iframe id="widget" title="Channels" src="${frameUrl}" style="display:block;width:100vw;height:100vh;border:0"></iframe>
       </body>`,
  );
});
test.afterAll(async () => {
  await crm.close();
});

test.beforeEach(async ({ request, token }) => {
  for (const c of await api<{ channel_id: string }[]>(request, token, 'GET', '/v2/channels')) {
    await api(request, token, 'DELETE', `/v2/channels/${c.channel_id}?delete_chats=true`);
  }
});

interface PhoneState {
  whatsapp: { sockets: number; listening: boolean; pairing_codes: string[] };
  telegram: { login_tokens: number };
}

/** The account's phone, played through the fakes' control server, whose address the gateway printed first. */
function phoneOf(gateway: RunningGateway) {
  const url = /^Phone control: (\S+)$/m.exec(gateway.output())?.[1];
  if (!url) throw new Error('the gateway printed no phone control address');
  return {
    state: async () => (await (await fetch(`${url}/state`)).json()) as PhoneState,
    async act(path: string, body: Record<string, unknown> = {}) {
      const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    },
  };
}

/** Opens the connect frame for a transport in the CRM page; it is open once the list's title shows. */
async function openFrame(page: Page, request: APIRequestContext, token: string, transport: string): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/channels', { user: { id: 'admin-1', name: 'Ada' }, transport })).url);
  await page.setViewportSize({ width: 1000, height: 760 });
  await page.goto(`${crm.origin}/settings/channels`);
  const frame = page.frameLocator('#widget');
  await expect(frame.getByRole('heading', { name: 'Your channels' })).toBeVisible();
  return frame;
}

/** The step as it looks in a narrow side panel (400 px) and in a wide settings page (1000 px). */
async function shot(page: Page, name: string): Promise<void> {
  for (const width of [400, 1000]) {
    await page.setViewportSize({ width, height: 760 });
    await paintedScreenshot(page, `${SHOTS}/${name}-${width}.png`);
  }
}

const rows = (frame: FrameLocator) => frame.getByRole('list', { name: 'Channels' }).getByRole('listitem');
const panel = (frame: FrameLocator) => frame.getByRole('region').filter({ has: frame.locator('#gw-connect-panel-title') });

test.describe('connecting personal accounts with the live drivers', () => {
  test.slow();

  test('whatsapp: draws each QR WhatsApp issues, shows its pairing code, and the channel going active', async ({ page, request, token, gateway }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const phone = phoneOf(gateway);
    const frame = await openFrame(page, request, token, 'whatsapp');
    await expect(frame.getByRole('radio', { name: 'WhatsApp', exact: true })).toBeChecked();

    const socketsBefore = (await phone.state()).whatsapp.sockets;
    const channelId = await connect(page, frame, 'Connect WhatsApp');
    // The driver opened its connection to WhatsApp; no code yet until WhatsApp issues one.
    await expect.poll(async () => (await phone.state()).whatsapp).toMatchObject({ sockets: socketsBefore + 1, listening: true });
    await expect(rows(frame).first()).toContainText('Waiting for the QR code to be scanned');
    // The frame draws exactly the code WhatsApp issued (the gateway's image of it).
    const firstCode = '2@e2e-first-ref,noise-key,identity-key,adv-secret';
    await phone.act('/whatsapp/qr', { qr: firstCode });
    const qr = frame.getByRole('img', { name: 'QR code to scan with WhatsApp' });
    await expect(qr).toHaveAttribute('src', await renderQr(firstCode));
    await axe(page, 'the WhatsApp QR');
    await shot(page, 'wa-01-qr');

    // WhatsApp renews its code: the frame shows the new one in place of the old.
    const secondCode = '2@e2e-second-ref,noise-key,identity-key,adv-secret';
    await phone.act('/whatsapp/qr', { qr: secondCode });
    await expect(qr).toHaveAttribute('src', await renderQr(secondCode));

    await frame.getByRole('button', { name: 'Link with phone number instead' }).click();
    const number = frame.getByRole('textbox', { name: 'Phone number of the WhatsApp account' });
    await expect(number).toBeFocused();
    await axe(page, 'the pairing-code form');
    await number.fill('+7 (900) 555-44-33');
    await frame.getByRole('button', { name: 'Get a code' }).click();
    // WhatsApp's own 8-character code, as the fake library answered the driver.
    await expect(frame.getByLabel(/^Pairing code:/)).toHaveText('K7QW-3PZX');
    expect((await phone.state()).whatsapp.pairing_codes).toEqual(['79005554433']);
    await expect(panel(frame)).toContainText('+79005554433');
    await axe(page, 'the pairing code');
    await shot(page, 'wa-02-pairing-code');

    // The phone confirms the code: WhatsApp sends what it held, then the channel is active with the account.
    await phone.act('/whatsapp/link', { phone: '79005554433', name: 'Acme Shop' });
    await expect(rows(frame).first()).toContainText('Scanned, loading the chat history');
    await axe(page, 'the history loading');
    await shot(page, 'wa-03-syncing');
    await phone.act('/whatsapp/synced');
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(panel(frame).getByRole('status')).toContainText('Acme Shop · +79005554433');
    await expect(rows(frame).first()).toContainText('Connected');
    const [channel] = await api<{ status: string; phone: string; name: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`);
    expect(channel).toMatchObject({ status: 'active', phone: '79005554433', name: 'Acme Shop' });
    await axe(page, 'WhatsApp connected');
    await shot(page, 'wa-04-connected');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  test('telegram account: QR, then the two-factor password (a wrong one said as such), then connected', async ({ page, request, token, gateway }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const phone = phoneOf(gateway);
    await phone.act('/telegram/password', { password: 'correct horse battery staple' });
    const frame = await openFrame(page, request, token, 'tgapi');
    await expect(frame.getByRole('radio', { name: 'Telegram account', exact: true })).toBeChecked();

    const channelId = await connect(page, frame, 'Connect Telegram account');
    // Telegram's login token, drawn as the QR to scan.
    await expect(frame.getByRole('img', { name: 'QR code to scan with Telegram' })).toHaveAttribute('src', /^data:image\/png;base64,/);
    expect((await phone.state()).telegram.login_tokens).toBeGreaterThan(0);
    await expect(rows(frame).first()).toContainText('Waiting for the QR code to be scanned');
    await axe(page, 'the Telegram QR');
    await shot(page, 'tg-01-qr');

    await phone.act('/telegram/scan');
    const password = frame.getByLabel('Two-factor password');
    await expect(password).toBeFocused();
    await expect(rows(frame).first()).toContainText('Waiting for the two-factor password');
    await axe(page, 'the password step');
    await shot(page, 'tg-02-password');

    await password.fill('tr0ub4dor&3');
    await frame.getByRole('button', { name: 'Confirm password' }).click();
    // Telegram's SRP check refused it: the frame says the password was wrong, not a code.
    const refusal = panel(frame).getByRole('alert');
    await expect(refusal).toHaveText('Wrong password. Check the password and try again.');
    await expect(refusal).not.toContainText(/code/i);
    await expect(password).toHaveValue('');
    await expect(password).toBeFocused();
    await axe(page, 'a wrong password');
    await shot(page, 'tg-03-wrong-password');

    await password.fill('correct horse battery staple');
    await frame.getByRole('button', { name: 'Confirm password' }).click();
    await expect(panel(frame).getByRole('status')).toContainText('Connected');
    await expect(panel(frame).getByRole('status')).toContainText(TELEGRAM_ACCOUNT);
    await expect(rows(frame).first()).toContainText('Connected');
    const [channel] = await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channelId}`);
    expect(channel).toMatchObject({ status: 'active', phone: '79990001122', username: 'acme_support' });
    await axe(page, 'Telegram connected');
    await shot(page, 'tg-04-connected');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });
});
