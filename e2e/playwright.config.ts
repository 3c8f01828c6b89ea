import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser) against `npm start` on a fresh data folder,
 * listening on 127.0.0.1 only.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: './tests',
  // Hang guards, not budgets: a step waits for what it expects for as long as its test may run (an assertion's wait
  // ends at the test's own deadline), so a busy machine makes a test slower, never wrong. No step sets a shorter one.
  timeout: 180_000,
  expect: { timeout: 175_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  // The one journey that closes a day moves the demo company's fecha flujo, which every payoff, quote and renewal
  // beside it is valued at: it runs after all the others, never in the middle of one.
  projects: [
    { name: 'journeys', testIgnore: /portfolio\.spec\.ts$/ },
    { name: 'day-close', testMatch: /portfolio\.spec\.ts$/, dependencies: ['journeys'] },
  ],
  use: {
    baseURL: BASE_URL,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    // Every test records a trace, kept when it fails: its DOM snapshots, network and console, without the screencast
    // (each frame composited and encoded for every test, kept or not, cost a third of Chromium's processor time:
    // docs/measurements.md, the test suite).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // `npm start` as a newcomer types it; under `npm test` (scripts/run-tests.mjs) the web is already built, and is not
    // built again while the unit tests beside this run read it.
    command: process.env.E2E_WEB_BUILT
      ? 'rm -rf e2e/.data-e2e && node scripts/setup.mjs start && npm run serve -w @portal/api'
      : 'rm -rf e2e/.data-e2e && npm start',
    cwd: '..',
    url: `${BASE_URL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
      DATA_DIR: 'e2e/.data-e2e',
      LOG_LEVEL: 'warn',
    },
  },
});
