import AxeBuilder from '@axe-core/playwright';
import type { FrameLocator, Page } from '@playwright/test';
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

/** Clicks the connect button and answers the new channel's id, from the gateway's answer. */
export async function connect(page: Page, frame: FrameLocator, button: string): Promise<string> {
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/bff/channels' && r.status() === 201);
  await frame.getByRole('button', { name: button }).click();
  return ((await (await created).json()) as { data: { channel_id: string }[] }).data[0]!.channel_id;
}
