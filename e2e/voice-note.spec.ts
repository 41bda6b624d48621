import { mkdirSync } from 'node:fs';
import { api, whatsappChannel, whatsappCustomerWrites as customerWrites, startCrmPage, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/** Recording a voice note in the frame (Chromium's fake microphone) and sending it; it plays in the history. */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';

// The project's launch options, with Chromium's fake microphone (a tone) that asks no one.
test.use({
  launchOptions: async ({ launchOptions }, use) =>
    use({ ...launchOptions, args: [...(launchOptions.args ?? []), '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] }),
});

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The host lets the frame use the microphone (docs/widget.md).
  crm = await startCrmPage(
    (frameUrl) => `<!doctype html><html lang="ru"><title>CRM</title>
       <body style="margin:0"><main><iframe id="widget" title="Chats" allow="microphone" src="${frameUrl}" style="display:block;width:100vw;height:100vh;border:0"></iframe></main></body></html>`,
  );
});
test.afterAll(async () => {
  await crm.close();
});

test('records a voice note, sends it, and the history plays it', async ({ page, context, request, token }) => {
  await context.grantPermissions(['microphone'], { origin: new URL(crm.origin).origin });
  const channelId = await whatsappChannel(request, token);
  await customerWrites(request, token, channelId, '79001230911', 'Anna Petrova', 'Можно голосом?');
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', options: { lang: 'ru' } })).url);
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  const frame = page.frameLocator('#widget');
  await frame.getByRole('listitem').filter({ hasText: 'Anna Petrova' }).getByRole('button').first().click();
  await frame.getByRole('button', { name: 'Записать голосовое сообщение' }).click();
  await expect(frame.getByRole('status').filter({ hasText: /Идёт запись… [1-9] с/ })).toBeAttached();
  await axe(page, 'recording a voice note');
  await paintedScreenshot(page, `${SHOTS}/voice-recording-320-ru.png`);
  await frame.getByRole('button', { name: /Остановить запись/ }).click();
  // The note waits in the composer as any file does, then goes with Send.
  await expect(frame.getByText(/voice-.*\.(ogg|webm)/)).toBeVisible();
  await frame.getByRole('button', { name: 'Отправить' }).click();
  const played = frame.locator('audio[aria-label^="voice-"]');
  await expect(played).toBeVisible();
  await expect(frame.locator('video')).toHaveCount(0);
  await axe(page, 'a sent voice note');
  await paintedScreenshot(page, `${SHOTS}/voice-sent-320-ru.png`);
});
