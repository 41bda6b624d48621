import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';

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

  // With the v3 face's operations added, Swagger UI draws the first tag's operations and then, on scrolling, only some
  // more: /v2/webhooks is not reached within a minute. Known and open; the reference document itself is complete
  // (the OpenAPI walks read every route of both faces from /openapi.json).
  test.fixme('/docs renders the API reference', async ({ page }, testInfo) => {
    // Swagger UI parses a large bundle and the whole document before it draws anything: on a busy two-core
    // machine that alone has taken over 10 s. This test is about what the page shows, not how fast.
    test.setTimeout(90_000);
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: /Messaging gateway/ })).toBeVisible({ timeout: 60_000 });
    const webhooks = page.locator('.opblock-summary-path', { hasText: /^\/v2\/webhooks$/ });
    await expect(webhooks.first()).toBeVisible();
    expect(await webhooks.count()).toBeGreaterThanOrEqual(2);
    await expect(page.locator('.opblock-summary-path', { hasText: /^\/healthz$/ })).toBeVisible();
    await screenshot(page, testInfo, 'docs');
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
