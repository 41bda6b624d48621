import { defineConfig, devices } from '@playwright/test';

// End-to-end tests: `npm run test:e2e` builds the widget, then runs `playwright test -c e2e`.
// Each spec file starts its own gateway process (see fixtures.ts), so there is no `webServer` here.
// Browsers cannot be downloaded in CI; Debian's chromium is used instead (`.ci/run` installs it).
export default defineConfig({
  testDir: '.',
  outputDir: '../test-results',
  reporter: 'list',
  // Two cores: one gateway and one browser per worker.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // E2E_TIMEOUT_MS / E2E_EXPECT_TIMEOUT_MS: more time on a machine shared with other heavy work.
  timeout: Number(process.env.E2E_TIMEOUT_MS ?? 30_000),
  expect: { timeout: Number(process.env.E2E_EXPECT_TIMEOUT_MS ?? 10_000) },
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--disable-dev-shm-usage',
          ],
        },
      },
    },
  ],
});
