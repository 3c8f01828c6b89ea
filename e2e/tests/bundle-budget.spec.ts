import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { SIGN_IN_PATH } from '@portal/contract';
import { ACCOUNTS, signIn } from './support';
import { PRODUCT_SCREENS } from './product-routes';

/**
 * What each screen costs a clerk opening it cold (a fresh browser, nothing cached): the JavaScript it loads,
 * gzipped. Budgets (issue 50): the sign-in page everyone loads first, "/" for a visitor (the session is decided
 * before the signed-in layout loads), and every product screen. docs/measurements.md keeps the figures.
 */
const KB = 1024;
const SIGN_IN_BUDGET = 100 * KB;
const VISITOR_ROOT_BUDGET = 110 * KB;
const SCREEN_BUDGET = 300 * KB;

interface Weight {
  total: number;
  listing: string;
  files: number;
}

/** Opens `url` in a fresh context (empty cache) and adds up the gzipped JavaScript it loads until `ready` holds. */
async function coldWeight(browser: Browser, url: string, ready: (page: Page) => Promise<void>, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!type.includes('javascript')) return;
    pending.push(
      response
        .body()
        .then((body) => void scripts.set(new URL(response.url()).pathname, gzipSync(body).length))
        .catch(() => undefined),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await ready(page);
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await context.close();
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const listing = [...scripts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([path, size]) => `  ${path} ${(size / KB).toFixed(1)} kB`)
    .join('\n');
  return { total, listing, files: scripts.size } satisfies Weight;
}

const report = (name: string, weight: Weight) =>
  console.log(`JavaScript de ${name}: ${(weight.total / KB).toFixed(1)} kB gzip en ${weight.files} archivos\n${weight.listing}`);

test('the sign-in page loads at most 100 kB of gzipped JavaScript', async ({ browser }) => {
  const weight = await coldWeight(browser, SIGN_IN_PATH, async (page) => {
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  });
  report(SIGN_IN_PATH, weight);
  expect(weight.files).toBeGreaterThan(0);
  expect(weight.total, weight.listing).toBeLessThanOrEqual(SIGN_IN_BUDGET);
});

test('"/" for a visitor decides the session before the signed-in layout: at most 110 kB', async ({ browser }) => {
  const weight = await coldWeight(browser, '/', async (page) => {
    await expect(page).toHaveURL(/\/session\/signin/);
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  });
  report('/ (visitante)', weight);
  expect(weight.total, weight.listing).toBeLessThanOrEqual(VISITOR_ROOT_BUDGET);
});

test('every product screen opened cold loads at most 300 kB of gzipped JavaScript', async ({ browser, page }) => {
  test.setTimeout(600_000);
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const storageState = await page.context().storageState();

  const over: string[] = [];
  const table: string[] = [];
  for (const { route: template, resolve } of PRODUCT_SCREENS) {
    const route = resolve ? await resolve(page) : template;
    const weight = await coldWeight(
      browser,
      route,
      async (screen) => {
        await expect(screen.locator('main'), route).toBeVisible();
        await expect(screen.getByRole('progressbar')).toHaveCount(0);
      },
      { storageState },
    );
    table.push(`${template} ${(weight.total / KB).toFixed(1)} kB`);
    if (weight.total > SCREEN_BUDGET) over.push(`${template}: ${(weight.total / KB).toFixed(1)} kB\n${weight.listing}`);
  }
  console.log(`JavaScript por pantalla, en frío (gzip):\n${table.join('\n')}`);
  expect(over, 'pantallas sobre 300 kB').toEqual([]);
});
