import { mkdirSync } from 'node:fs';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, recordingPage, startCrmPage, whatsappChannel, whatsappCustomerWrites, type CrmPage } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/**
 * Quick replies: an agent saves the account's answers in the chat frame, finds one by typing `/` in the composer,
 * picks it with the keys and sends it; once the account sets roles, a seller uses them and cannot change them.
 */
let crm: CrmPage;
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/quick-replies-shots';

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  crm = await startCrmPage(recordingPage);
});
test.afterAll(async () => {
  await crm.close();
});

async function openFrame(page: Page, request: APIRequestContext, token: string, width: number): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  const link = { user: { id: 'agent-1', name: 'Ann' }, scope: 'global', options: { lang: 'en', theme: 'light' } };
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', link)).url);
  await page.setViewportSize({ width, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const shot = (page: Page, name: string) => paintedScreenshot(page, `${SHOTS}/quick-replies-${name}.png`);
const items = (frame: FrameLocator, name: string) => frame.getByRole('list', { name }).getByRole('listitem');

test('quick replies: saved in the frame, found with / in the composer, picked with the keys, read-only for a seller (English, light, 960 px)', async ({
  page,
  request,
  token,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const wa = await whatsappChannel(request, token);
  await whatsappCustomerWrites(request, token, wa, '79001238001', 'Rita Moss', 'Where are you?');
  const frame = await openFrame(page, request, token, 960);
  await items(frame, 'Chat list').filter({ hasText: 'Rita Moss' }).getByRole('button').first().click();
  const box = frame.getByRole('textbox', { name: 'Message' });

  // None yet: the list says so and offers to manage them.
  await box.fill('/');
  const list = frame.getByRole('listbox', { name: 'Quick replies' });
  await expect(frame.getByRole('status').filter({ hasText: 'No quick replies yet.' })).toBeVisible();
  await axe(page, 'the composer’s quick reply list, empty');
  await frame.getByRole('button', { name: 'Manage quick replies' }).click();
  const dialog = frame.getByRole('dialog', { name: 'Quick replies' });
  for (const [shortcut, text] of [
    ['hello', 'Hello! How can I help you?'],
    ['address', 'We are at 1 Main St., open 9 to 6.'],
  ]) {
    await dialog.getByRole('button', { name: 'Add a quick reply' }).click();
    await dialog.getByRole('textbox', { name: 'Shortcut' }).fill(shortcut!);
    await dialog.getByRole('textbox', { name: 'Text' }).fill(text!);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(items(frame, 'Quick replies').filter({ hasText: `/${shortcut}` })).toBeVisible();
  }
  // A shortcut used already is refused by the gateway, said next to nothing lost.
  await dialog.getByRole('button', { name: 'Add a quick reply' }).click();
  await dialog.getByRole('textbox', { name: 'Shortcut' }).fill('Hello');
  await dialog.getByRole('textbox', { name: 'Text' }).fill('Hi');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/Shortcut is already the shortcut of another quick reply/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Changed, then deleted and added again.
  await dialog.getByRole('button', { name: 'Edit /hello' }).click();
  await dialog.getByRole('textbox', { name: 'Text' }).fill('Hello! How can I help you today?');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(items(frame, 'Quick replies').filter({ hasText: 'How can I help you today?' })).toBeVisible();
  await expect(dialog.getByText('2 of 200')).toBeVisible();
  await axe(page, 'the quick replies dialog');
  await shot(page, 'manage-en-light-960');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
  await expect(box).toBeFocused();

  // `/` lists both; a word narrows them; the arrows move, Enter puts the reply in the box, and Enter again sends it.
  await box.fill('/');
  await expect(list.getByRole('option')).toHaveText([/\/address/, /\/hello/]);
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await axe(page, 'the composer’s quick reply list');
  await shot(page, 'slash-en-light-960');
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: /\/hello/ })).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await list.getByRole('option', { name: /\/hello/ }).getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: /\/address/ })).toHaveAttribute('aria-selected', 'true');
  await box.pressSequentially('he');
  await expect(list.getByRole('option')).toHaveText([/\/hello/]);
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('Hello! How can I help you today?');
  await expect(list).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(items(frame, 'Messages').filter({ hasText: 'Hello! How can I help you today?' })).toBeVisible();

  // Escape closes the list and leaves the text; a word that finds nothing says so.
  await box.fill('/zz');
  await expect(frame.getByText('No quick reply starts with /zz.')).toBeVisible();
  await expect(list).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(frame.getByText('No quick reply starts with /zz.')).toBeHidden();
  await expect(box).toHaveValue('/zz');

  // Once the account sets roles, a seller uses the replies and cannot change them.
  await api(request, token, 'PATCH', '/v2/settings', { user_roles: [{ channel_id: wa, user_id: 'agent-1', role: 'seller', allow_get_new_clients: true }] });
  const again = await openFrame(page, request, token, 960);
  await items(again, 'Chat list').filter({ hasText: 'Rita Moss' }).getByRole('button').first().click();
  await again.getByRole('textbox', { name: 'Message' }).fill('/ad');
  await expect(again.getByRole('listbox', { name: 'Quick replies' }).getByRole('option')).toHaveText([/\/address/]);
  await again.getByRole('button', { name: 'Manage quick replies' }).click();
  const readOnly = again.getByRole('dialog', { name: 'Quick replies' });
  await expect(readOnly.getByText('Only a manager of a channel changes the account’s quick replies.')).toBeVisible();
  await expect(readOnly.getByRole('button', { name: /Edit|Delete|Add/ })).toHaveCount(0);
  await axe(page, 'the quick replies dialog, read-only');
  expect(errors, 'uncaught errors in the page').toEqual([]);
});
