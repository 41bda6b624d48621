import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/**
 * No axe-core violation of impact serious or critical on the reference page, or in the parts of it `only` names;
 * `state` names the page's state in the message.
 */
async function referenceAxe(page: Page, state: string, only: string[] = []): Promise<void> {
  const builder = new AxeBuilder({ page });
  for (const selector of only) builder.include(selector);
  const results = await builder.analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} such, e.g. ${v.nodes[0]?.target.join(' ')}`), `axe on ${state}`).toEqual([]);
}

/** Full-page screenshot, attached to the report; also written to E2E_SCREENSHOT_DIR when it is set. */
async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ fullPage: true });
  await testInfo.attach(`${name}.png`, { body, contentType: 'image/png' });
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir) {
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  }
}

test.describe('smoke', () => {
  // `/` is the demo CRM (demo.spec.ts); the built shell is still served under its own name.
  test('the widget shell renders at /index.html', async ({ page }, testInfo) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const response = await page.goto('/index.html');
    expect(response?.status(), 'GET /index.html (is dist/ built? `npm run test:e2e` runs vite build first)').toBe(200);
    await expect(page).toHaveTitle('Messaging gateway');
    await expect(page.getByRole('heading', { level: 1, name: 'Messaging gateway' })).toBeVisible();
    await expect(page.getByRole('link', { name: '/docs' })).toHaveAttribute('href', '/docs');
    await screenshot(page, testInfo, 'widget');
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  // Every operation of both faces is in the page once it has loaded: Swagger UI would draw only the rows near the
  // viewport of a list this long (public/docs/full-operation-list.js), and /v2/webhooks, the second tag, was missing.
  test('/docs renders the API reference, every operation of both faces, with no serious or critical axe finding', async ({ page, request }, testInfo) => {
    // Swagger UI parses a large bundle and the whole document before it draws anything: on a busy two-core
    // machine that alone has taken over 10 s, and axe over a page this long tens of seconds more. This test is about
    // what the page shows, not how fast.
    test.setTimeout(150_000);
    const doc = (await (await request.get('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((k) => METHODS.has(k))).length;
    expect(operations).toBeGreaterThan(150);

    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: /Messaging gateway/ })).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('.opblock')).toHaveCount(operations);
    for (const path of ['/v2/webhooks', '/v3/message', '/v3/webhooks', '/healthz']) {
      const rows = page.locator('.opblock-summary-path', { hasText: new RegExp(`^${path.replace(/\//g, '\\/')}$`) });
      await expect(rows.first(), path).toBeAttached();
    }
    expect(await page.locator('.opblock-summary-path', { hasText: /^\/v2\/webhooks$/ }).count()).toBeGreaterThanOrEqual(2);
    // The last tag's rows are drawn without scrolling to them.
    await expect(page.locator('.opblock-tag[data-tag="v3 templates"]')).toBeAttached();
    await expect(page.locator('.opblock-tag[data-tag="default"]'), 'every operation has a tag').toHaveCount(0);
    await screenshot(page, testInfo, 'docs');
    await referenceAxe(page, 'the reference as loaded');
  });

  test('/docs: an opened operation, tried out, has no serious or critical axe finding', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: /Messaging gateway/ })).toBeVisible({ timeout: 60_000 });
    // An operation with a request body and its example, and one tried out (parameters and the Execute button); the
    // rest of the page is checked closed in the test above.
    const send = page.locator('#operations-v3_messages-post_v3_message');
    await send.locator('.opblock-summary-control').click();
    await expect(send.locator('.body-param__example')).toBeVisible();
    const webhooks = page.locator('#operations-webhooks-get_v2_webhooks');
    await webhooks.locator('.opblock-summary-control').click();
    await webhooks.getByRole('button', { name: 'Try it out' }).click();
    await expect(webhooks.getByRole('button', { name: 'Execute' })).toBeVisible();
    await referenceAxe(page, 'two operations opened', ['#operations-v3_messages-post_v3_message', '#operations-webhooks-get_v2_webhooks']);
  });

  test('GET /v2/webhooks answers with the envelope, and 401 without a token', async ({ request, token }) => {
    const ok = await request.get('/v2/webhooks', { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status()).toBe(200);
    const body = (await ok.json()) as { data: unknown; meta: { timestamp: number } };
    expect(body).toEqual({ data: [], meta: { timestamp: expect.any(Number) } });
    // Unix time in seconds, close to now.
    expect(Number.isInteger(body.meta.timestamp)).toBe(true);
    expect(Math.abs(body.meta.timestamp - Date.now() / 1000)).toBeLessThan(300);

    const denied = await request.get('/v2/webhooks');
    expect(denied.status()).toBe(401);
    expect(await denied.json()).toEqual({ error: 'UNAUTHORIZED', description: expect.any(String) });
  });
});
