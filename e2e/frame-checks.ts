import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * No axe-core violation of impact serious or critical inside the frame (`#widget`; the CRM page around it is not
 * ours to judge). `state` names the screen in the failure message.
 */
export async function axe(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include('#widget').analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${state}`).toEqual([]);
}

/** A screenshot once the page has painted what the last step changed (two animation frames later). */
export async function paintedScreenshot(page: Page, path: string): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path });
}
