import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { api, frameOnlyCrmForFile, whatsappChannel, whatsappCustomerWrites as customerWrites } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test } from './fixtures.ts';

/** Reactions and typing between the agent's frame and the sandbox phone, both ways, by push. */
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/workspace-shots';
const crm = frameOnlyCrmForFile(SHOTS);


async function openFrame(page: Page, request: APIRequestContext, token: string): Promise<FrameLocator> {
  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global' })).url);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 960, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  return page.frameLocator('#widget');
}

const messages = (frame: FrameLocator) => frame.getByRole('list', { name: 'Messages', exact: true }).getByRole('listitem');

test('the agent and the customer react to a message and see each other type, on the frame and on the sandbox phone', async ({ page, context, request, token, baseURL }) => {
  const channelId = await whatsappChannel(request, token);
  await customerWrites(request, token, channelId, '79001230901', 'Olga Lind', 'Can I pick the order up today?');
  const frame = await openFrame(page, request, token);
  await frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem').filter({ hasText: 'Olga Lind' }).getByRole('button').first().click();
  const asked = messages(frame).filter({ hasText: 'Can I pick the order up today?' });
  await expect(asked).toBeVisible();

  const phone = await context.newPage();
  await phone.setViewportSize({ width: 420, height: 900 });
  await phone.goto(`${baseURL}/sandbox/phone/?customer=79001230901#token=${token}`);
  const onPhone = phone.getByRole('list', { name: 'Messages' }).getByRole('listitem');
  await expect(onPhone.filter({ hasText: 'Can I pick the order up today?' })).toBeVisible();

  // The agent reacts from the message's quick choice; the phone shows it by push.
  await asked.hover();
  await asked.getByRole('button', { name: 'React to the message' }).click();
  const choice = asked.getByRole('group', { name: 'Reactions' });
  await expect(choice.getByRole('button', { name: 'React with 👍' })).toBeFocused();
  await axe(page, 'the quick choice of reactions');
  await paintedScreenshot(page, `${SHOTS}/reactions-choice.png`);
  await choice.getByRole('button', { name: 'React with 👍' }).click();
  await expect(asked.getByRole('button', { name: /👍 1, yours among them/ })).toBeVisible();
  await expect(onPhone.filter({ hasText: '👍 business' })).toBeVisible();

  // The customer reacts on the phone; the frame shows it live.
  await onPhone.filter({ hasText: 'Can I pick the order up today?' }).getByRole('button', { name: 'React with ❤' }).click();
  await expect(asked.getByRole('button', { name: '❤ 1' })).toBeVisible();

  // The customer types on the phone: the frame says so.
  await phone.getByLabel('Message', { exact: true }).pressSequentially('Also, ');
  await expect(frame.getByText('Olga Lind · typing…')).toBeVisible();
  // The agent types in the frame: the phone says so.
  await frame.getByRole('textbox', { name: 'Message' }).pressSequentially('Yes, until 8 pm');
  await expect(phone.getByText('The business is typing…')).toBeVisible();
  await axe(page, 'a chat with reactions while the customer types');
  await paintedScreenshot(page, `${SHOTS}/reactions-frame.png`);

  // The agent's message reaches the phone by push, and the phone keeps the focus it had.
  const phoneBox = phone.getByLabel('Message', { exact: true });
  await phoneBox.focus();
  await frame.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(onPhone.filter({ hasText: 'Yes, until 8 pm' })).toBeVisible({ timeout: 5_000 });
  await expect(phoneBox).toBeFocused();
  const phoneAxe = await new AxeBuilder({ page: phone }).include('#phone').analyze();
  expect(phoneAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await paintedScreenshot(phone, `${SHOTS}/reactions-phone.png`);
});

test('the sandbox phone draws a bot’s buttons and presses one; the frame shows the press answering the message', async ({ page, context, request, token, baseURL }) => {
  const [bot] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'telegram', credentials: { telegram_token: `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}` } });
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${bot!.channel_id}`))[0]!.status).toBe('active');
  await api(request, token, 'POST', `/v2/sandbox/channels/${bot!.channel_id}/inbound`, { chat_type: 'telegram', chat_id: '55501', name: 'Pavel Orlov', text: 'Is my parcel ready?' });
  const keyboard = { buttons: [[{ text: 'Deliver today', callback_data: 'today' }, { text: 'Pick up', callback_data: 'pickup' }], [{ text: 'Track it', url: 'https://example.com/track' }]] };
  await api(request, token, 'POST', '/v2/messages', { channel_id: bot!.channel_id, recipient: { chat_type: 'telegram', chat_id: '55501' }, text: 'Yes! How do you want it?', keyboard });

  const phone = await context.newPage();
  await phone.setViewportSize({ width: 420, height: 900 });
  await phone.goto(`${baseURL}/sandbox/phone/#token=${token}`);
  await phone.getByLabel('The channel this phone talks to').selectOption(bot!.channel_id);
  await phone.getByLabel('Customer (number or chat id)').fill('55501');
  await phone.getByLabel('Customer (number or chat id)').dispatchEvent('change');
  const buttons = phone.getByRole('group', { name: 'Buttons of the message' });
  await expect(buttons.getByRole('button', { name: 'Deliver today' })).toBeVisible();
  await expect(buttons.getByRole('link', { name: 'Track it ↗' })).toHaveAttribute('href', 'https://example.com/track');
  await paintedScreenshot(phone, `${SHOTS}/phone-keyboard.png`);
  await buttons.getByRole('button', { name: 'Deliver today' }).click();

  const frame = await openFrame(page, request, token);
  await frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem').filter({ hasText: 'Pavel Orlov' }).getByRole('button').first().click();
  const press = messages(frame).last();
  await expect(press).toContainText('Deliver today');
  // The press answers the message whose button it was: its quote leads back to it.
  await expect(press.getByRole('button', { name: /Yes! How do you want it\?/ })).toBeVisible();
  await axe(page, 'a chat with a pressed button');
  await paintedScreenshot(page, `${SHOTS}/frame-press.png`);
});
