import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, startCrmPage, whatsappChannel, whatsappCustomerWrites, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * The frames in Spanish and Portuguese, the original service's account languages beside English and Russian: the
 * chat frame's list, history, composer and emoji picker, and the connect frame, each said in the link's language.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/languages-shots';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

type Look = { lang: string; theme: 'light' | 'dark'; width: number };

async function openLink(page: Page, request: APIRequestContext, token: string, kind: 'chats' | 'channels', look: Look): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  const link = kind === 'chats' ? { scope: 'global' } : {};
  crm.embed((await api<{ url: string }>(request, token, 'POST', `/v2/iframe-links/${kind}`, { user: { id: 'agent-1', name: 'Ann' }, options: { lang: look.lang, theme: look.theme }, ...link })).url);
  await page.setViewportSize({ width: look.width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const shot = (page: Page, name: string) => paintedScreenshot(page, `${SHOTS}/languages-${name}.png`);
const items = (frame: FrameLocator, name: string) => frame.getByRole('list', { name }).getByRole('listitem');

test.describe('the frames in Spanish and Portuguese', () => {
  test('an agent answers a customer in Spanish (light, 960 px)', async ({ page, request, token }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001239001', 'Lucía Gómez', '¿Mi pedido ya salió?');
    await whatsappCustomerWrites(request, token, wa, '79001239002', 'Mateo Ruiz', 'Buenos días');
    const frame = await openLink(page, request, token, 'chats', { lang: 'es', theme: 'light', width: 960 });
    const list = items(frame, 'Lista de chats');
    await expect(list.filter({ hasText: 'Lucía Gómez' })).toBeVisible();
    await expect(frame.getByRole('searchbox', { name: 'Buscar chats' })).toBeVisible();
    await expect(frame.getByText('Elija un chat para leerlo y responder.')).toBeVisible();
    await expect(list.filter({ hasText: 'Mateo Ruiz' }).getByLabel('1 sin responder')).toBeVisible();

    await list.filter({ hasText: 'Lucía Gómez' }).getByRole('button').first().click();
    await expect(items(frame, 'Mensajes').filter({ hasText: '¿Mi pedido ya salió?' })).toBeVisible();
    await expect(frame.getByText('Hoy', { exact: true })).toBeVisible();
    const box = frame.getByRole('textbox', { name: 'Mensaje' });
    await expect(box).toHaveAttribute('placeholder', 'Escriba un mensaje…');
    await box.fill('Sí, sale hoy por la tarde.');
    await frame.getByRole('button', { name: 'Enviar', exact: true }).click();
    await expect(items(frame, 'Mensajes').filter({ hasText: 'Sí, sale hoy por la tarde.' })).toBeVisible();
    await expect(box).toHaveValue('');
    await axe(page, 'a chat in Spanish (light, 960)');
    await shot(page, 'chat-es-light-960');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  test('a chat and its emoji picker in Portuguese, and the connect frame in Portuguese and Spanish (light, 320 px)', async ({ page, request, token }) => {
    const wa = await whatsappChannel(request, token);
    await whatsappCustomerWrites(request, token, wa, '79001239101', 'João Silva', 'Obrigado!');
    const emojiData: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/emoji/')) emojiData.push(new URL(r.url()).pathname);
    });
    const frame = await openLink(page, request, token, 'chats', { lang: 'pt-BR', theme: 'light', width: 320 });
    await items(frame, 'Lista de chats').filter({ hasText: 'João Silva' }).getByRole('button').first().click();
    const box = frame.getByRole('textbox', { name: 'Mensagem' });
    await expect(box).toHaveAttribute('placeholder', 'Escreva uma mensagem…');
    await expect(frame.getByRole('button', { name: 'Voltar à lista de chats' })).toBeVisible();
    await box.fill('De nada ');
    await frame.getByRole('button', { name: 'Emoji' }).click();
    const picker = frame.getByRole('dialog', { name: 'Seletor de emoji' });
    await picker.getByRole('searchbox', { name: 'Buscar emoji' }).fill('coração');
    await expect(picker.getByRole('gridcell').first().or(picker.getByRole('button', { name: /coração/ }).first()).first()).toBeVisible();
    expect(emojiData).toContain('/emoji/pt/data.json');
    await axe(page, 'the emoji picker in Portuguese (light, 320)');
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    await axe(page, 'a chat in Portuguese (light, 320)');
    await shot(page, 'chat-pt-light-320');

    const connectPt = await openLink(page, request, token, 'channels', { lang: 'pt', theme: 'light', width: 320 });
    await expect(connectPt.getByRole('heading', { name: 'Seus canais' })).toBeVisible();
    await expect(connectPt.getByRole('heading', { name: 'Conectar um canal' })).toBeVisible();
    await expect(connectPt.getByRole('radio', { name: 'Bot do Telegram', exact: true })).toBeVisible();
    await axe(page, 'the connect frame in Portuguese (light, 320)');
    await shot(page, 'connect-pt-light-320');

    const connectEs = await openLink(page, request, token, 'channels', { lang: 'es', theme: 'dark', width: 960 });
    await expect(connectEs.getByRole('heading', { name: 'Sus canales' })).toBeVisible();
    await expect(connectEs.getByRole('radio', { name: 'Cuenta de Telegram', exact: true })).toBeVisible();
    await axe(page, 'the connect frame in Spanish (dark, 960)');
    await shot(page, 'connect-es-dark-960');
  });
});
