import { api, frameOnlyCrmForFile } from './crm-page.ts';
import { axe, paintedScreenshot } from './frame-checks.ts';
import { expect, test, type RunningGateway } from './fixtures.ts';

/**
 * A personal Telegram account's customer reacts and types, and the agent's chat frame shows it live. The gateway runs
 * the real driver (mtcute) over the Telegram account fake (src/server/testing/personal-accounts-gateway.ts); the test
 * plays the account's phone and the customer through the fake's control server.
 */
test.use({ gatewayEntry: 'src/server/testing/personal-accounts-gateway.ts' });

const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? '/tmp/personal-reactions-shots';
const crm = frameOnlyCrmForFile(SHOTS);
const ANNA = { id: 700300, firstName: 'Anna', lastName: 'Kravets', username: 'anna_k', phone: '79991112233' };


/** The fakes' control server, whose address the gateway printed first. */
function phoneOf(gateway: RunningGateway) {
  const url = /^Phone control: (\S+)$/m.exec(gateway.output())?.[1];
  if (!url) throw new Error('the gateway printed no phone control address');
  return {
    state: async () => (await (await fetch(`${url}/state`)).json()) as { telegram: { login_tokens: number } },
    async act<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
      const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      return (await res.json()) as T;
    },
  };
}

test('a personal Telegram customer’s reaction and typing show in the agent’s frame as they happen', async ({ page, request, token, gateway }) => {
  const phone = phoneOf(gateway);
  const [channel] = await api<{ channel_id: string }[]>(request, token, 'POST', '/v2/channels', { transport: 'tgapi', credentials: {} });
  await expect.poll(async () => (await phone.state()).telegram.login_tokens).toBeGreaterThan(0);
  await phone.act('/telegram/password', { password: null });
  await phone.act('/telegram/scan');
  await expect.poll(async () => (await api<{ status: string }[]>(request, token, 'GET', `/v2/channels/${channel!.channel_id}`))[0]!.status).toBe('active');
  const { message_id: asked } = await phone.act<{ message_id: number }>('/telegram/customer/writes', { user: ANNA, text: 'Можно забрать заказ сегодня?' });

  await api(request, token, 'PUT', '/v2/embedding/origins', { origins: [crm.origin] });
  crm.embed((await api<{ url: string }>(request, token, 'POST', '/v2/iframe-links/chats', { user: { id: 'agent-1', name: 'Ann' }, scope: 'global' })).url);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 960, height: 640 });
  await page.goto(`${crm.origin}/deal/1`);
  const frame = page.frameLocator('#widget');
  await frame.getByRole('list', { name: 'Chat list' }).getByRole('listitem').filter({ hasText: 'Anna Kravets' }).getByRole('button').first().click();
  const message = frame.getByRole('list', { name: 'Messages', exact: true }).getByRole('listitem').filter({ hasText: 'Можно забрать заказ сегодня?' });
  await expect(message).toBeVisible();

  // The customer reacts in Telegram, changes the reaction, and types: each shows without a reload.
  await phone.act('/telegram/customer/reacts', { user_id: ANNA.id, message_id: asked, emoji: '👍' });
  await expect(message.getByRole('button', { name: '👍 1' })).toBeVisible();
  await phone.act('/telegram/customer/reacts', { user_id: ANNA.id, message_id: asked, emoji: '🔥' });
  await expect(message.getByRole('button', { name: '🔥 1' })).toBeVisible();
  await expect(message.getByRole('button', { name: '👍 1' })).toHaveCount(0);
  await phone.act('/telegram/customer/typing', { user_id: ANNA.id });
  await expect(frame.getByText('Anna Kravets · typing…')).toBeVisible();
  await axe(page, 'a personal Telegram chat with the customer’s reaction while they type');
  await paintedScreenshot(page, `${SHOTS}/tgapi-reaction-typing.png`);
  // They stop without sending: "typing…" goes at once, well before it would lapse (6 s).
  await phone.act('/telegram/customer/typing', { user_id: ANNA.id, stopped: true });
  await expect(frame.getByText('Anna Kravets · typing…')).toBeHidden({ timeout: 2_000 });

  // Taken back in Telegram: the chip goes.
  await phone.act('/telegram/customer/reacts', { user_id: ANNA.id, message_id: asked, emoji: null });
  await expect(message.getByRole('button', { name: '🔥 1' })).toHaveCount(0);
});
