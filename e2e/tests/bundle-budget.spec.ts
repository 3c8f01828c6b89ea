import { expect, test, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { SIGN_IN_PATH } from '@portal/contract';
import { seriousViolations, type Finding } from './axe';
import { ACCOUNTS, signIn } from './support';
import { PRODUCT_SCREENS, resolveScreens } from './product-routes';

/**
 * What each screen costs a clerk opening it cold (a fresh browser, nothing cached): the JavaScript it loads, gzipped.
 * Issue 50's targets are the budgets where they can be met: the sign-in page ≤ 100 kB and "/" for a visitor ≤ 110 kB.
 * A product screen's 300 kB cannot be met by a screen that shows MUI X's data grid: the floor every signed-in screen
 * loads (React, React Router, MUI's core, zod and TanStack Query, oidc-client-ts: ~185 kB) and the grid (~134 kB)
 * already pass it. Decision 0027 restates it: a screen's JavaScript without MUI X's chunks ≤ 340 kB, and those chunks
 * only on the screens that show a grid or a date picker. docs/measurements.md keeps the figures.
 *
 * The same cold load is where each product screen's accessibility is checked (WCAG 2.1 AA, axe-core: no serious or
 * critical violation): one load per screen for both, instead of a second sweep that draws every screen again.
 */
const KB = 1024;
const TARGET = { signIn: 100 * KB, visitorRoot: 110 * KB };
/** Decision 0027: a product screen's JavaScript, not counting MUI X's data grid and date pickers where it shows them. */
const SCREEN_WITHOUT_MUI_X = 340 * KB;
/** Decision 0027's one restated ceiling: Capturas (pre-request-new) with renewals measured 341.8 kB. */
const CEILING: Record<string, number> = { '/origination/pre-request-new': 345 * KB };
/** MUI X's chunks (apps/web/src/components/server-data-grid.tsx, date-field.tsx) and the screens allowed to load each. */
const MUI_X = {
  grid: {
    file: /\/server-data-grid-[\w-]+\.js$/,
    screens: [
      '/user/user-list',
      '/user/mail',
      '/catalog/contract-list',
      '/origination/pre-request-new',
      '/origination/request-list',
      '/wallet/credits/credits-list',
      '/wallet/admin-flow-date',
      '/wallet/upload-file-pay',
      '/wallet/files-pay-list',
      '/wallet/files-pay-detail/:id',
      '/wallet/application-pay-list',
      '/wallet/operative-report',
      '/wallet/deduction-orders',
      '/wallet/deduction-orders/:id',
      '/wallet/refunds',
      '/treasury/payment-orders',
      '/wallet/employer-statement',
      '/creditos/update-labels',
      '/admon-wallet/reports-list',
    ],
  },
  picker: {
    file: /\/date-field-[\w-]+\.js$/,
    screens: [
      '/origination/request-list',
      '/wallet/credits/credits-list',
      '/creditos/update-labels',
      '/wallet/files-pay-list',
      '/wallet/application-pay-list',
      '/wallet/operative-report',
      '/creditos/settlement-letter',
      '/catalog/contract-new',
      '/catalog/contract-edit/:id',
    ],
  },
};

interface Weight {
  total: number;
  listing: string;
  files: number;
  paths: string[];
  sizes: Map<string, number>;
}

/**
 * Opens `url` in a fresh context (empty cache) and adds up the gzipped JavaScript it loads until `ready` holds and the
 * network is quiet; `inspect` then looks at the settled page before the context closes.
 */
async function coldWeight(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<void>,
  options: BrowserContextOptions = {},
  inspect?: (page: Page) => Promise<void>,
) {
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
  await inspect?.(page);
  await context.close();
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const listing = [...scripts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([path, size]) => `  ${path} ${(size / KB).toFixed(1)} kB`)
    .join('\n');
  return { total, listing, files: scripts.size, paths: [...scripts.keys()].sort(), sizes: scripts } satisfies Weight;
}

const report = (name: string, weight: Weight) =>
  console.log(`JavaScript de ${name}: ${(weight.total / KB).toFixed(1)} kB gzip en ${weight.files} archivos\n${weight.listing}`);

test('the sign-in page stays within its budget', async ({ browser }) => {
  const weight = await coldWeight(browser, SIGN_IN_PATH, async (page) => {
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  });
  report(SIGN_IN_PATH, weight);
  expect(weight.files).toBeGreaterThan(0);
  expect(weight.total, weight.listing).toBeLessThanOrEqual(TARGET.signIn);
});

test('"/" for a visitor decides the session before the signed-in layout: it loads only what the sign-in page loads', async ({
  browser,
}) => {
  const ready = async (page: Page) => {
    await expect(page).toHaveURL(/\/session\/signin/);
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  };
  const root = await coldWeight(browser, '/', ready);
  const signIn = await coldWeight(browser, SIGN_IN_PATH, ready);
  report('/ (visitante)', root);
  // Neither the signed-in layout nor the home: the same files as the sign-in page.
  expect(root.paths).toEqual(signIn.paths);
  expect(root.listing).not.toMatch(/guarded-layout|home\.screen/);
  expect(root.total, root.listing).toBeLessThanOrEqual(TARGET.visitorRoot);
});

// One test per screen: each has its own deadline (a sweep of every screen in one test outgrew any single deadline on a
// busy CI machine), and a screen over budget names itself. The shared floor is reported once all have loaded.
test.describe("every product screen opened cold: within decision 0027's budget, MUI X only where it shows it, no serious or critical WCAG 2.1 AA violation", () => {
  let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
  /** Each screen's route, the detail routes with a real id, asked of the API once. */
  let routes: Map<string, string>;
  const loaded: Weight[] = [];
  const table: string[] = [];

  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, ACCOUNTS.admin);
    await expect(page).toHaveURL(/\/home$/);
    storageState = await context.storageState();
    routes = new Map((await resolveScreens(page)).map(({ template, route }) => [template, route]));
    await context.close();
  });
  test.afterAll(() => {
    // The floor: what every signed-in screen loads, whatever it shows (React, React Router, MUI's core, zod, the shell).
    const [first, ...others] = loaded;
    if (!first) return;
    const shared = first.paths.filter((path) => others.every(({ sizes }) => sizes.has(path)));
    const floor = shared.reduce((sum, path) => sum + first.sizes.get(path)!, 0);
    console.log(
      `JavaScript por pantalla, en frío (gzip):\n${table.join('\n')}\nLo que toda pantalla carga: ${(floor / KB).toFixed(1)} kB en ${shared.length} archivos`,
    );
  });

  for (const { route: template } of PRODUCT_SCREENS) {
    test(template, async ({ browser }) => {
      const route = routes.get(template)!;
      let violations: Finding[] = [];
      const weight = await coldWeight(
        browser,
        route,
        async (screen) => {
          await expect(screen.locator('main'), route).toBeVisible();
          await expect(screen.getByRole('progressbar')).toHaveCount(0);
        },
        { storageState },
        async (screen) => {
          violations = await seriousViolations(screen, route);
        },
      );
      loaded.push(weight);
      let muiX = 0;
      const muiXOutOfPlace: string[] = [];
      for (const [name, { file, screens }] of Object.entries(MUI_X)) {
        for (const [path, size] of weight.sizes) {
          if (!file.test(path)) continue;
          muiX += size;
          if (!screens.includes(template)) muiXOutOfPlace.push(`${template} carga ${name} (${path})`);
        }
      }
      const rest = weight.total - muiX;
      table.push(
        `${template} ${(weight.total / KB).toFixed(1)} kB = MUI X ${(muiX / KB).toFixed(1)} + ${(rest / KB).toFixed(1)}` +
          (weight.total > 300 * KB ? ` (meta del issue, 300 kB: +${((weight.total - 300 * KB) / KB).toFixed(1)} kB)` : ''),
      );
      expect(violations, 'WCAG 2.1 AA').toEqual([]);
      expect(muiXOutOfPlace, 'MUI X fuera de las pantallas que lo muestran').toEqual([]);
      expect(rest, `${template}: ${(rest / KB).toFixed(1)} kB sin MUI X\n${weight.listing}`).toBeLessThanOrEqual(
        CEILING[template] ?? SCREEN_WITHOUT_MUI_X,
      );
    });
  }
});
