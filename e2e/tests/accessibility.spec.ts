import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { FORGOT_PASSWORD_PATH, NOT_FOUND_PATH, SIGN_IN_PATH } from '@portal/contract';
import { ACCOUNTS, sidebar, signIn } from './support';
import { PRODUCT_SCREENS, disbursedRequest, first, type SweepRoute } from './product-routes';

/**
 * WCAG 2.1 AA on every route (axe-core): 0 serious and 0 critical violations, so a new screen that regresses fails
 * here. The list of routes is the contract's (sidebar, detail routes with real ids from the demo seed), not a copy.
 */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// The sweep's halves and the other checks are independent: both workers may take them.
test.describe.configure({ mode: 'parallel' });

/**
 * The README's screenshots of the corrected screens, written by these tests: into docs/screenshots with
 * `UPDATE_SCREENSHOTS=1 npm run test:e2e`, otherwise beside the test results, so a plain test run leaves the tree clean.
 */
const SCREENSHOTS = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots' : '../test-results/screenshots', import.meta.url),
);

interface Finding {
  route: string;
  rule: string;
  impact: string;
  targets: string[];
}

async function seriousViolations(page: Page, route: string): Promise<Finding[]> {
  // Legacy mode: axe runs in the page and its frames, without opening a blank page to gather the results for each
  // route (what that adds is checking cross-origin frames, and the app has none: the sign-in provider is same-origin).
  const result = await new AxeBuilder({ page }).withTags(WCAG).setLegacyMode().analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      route,
      rule: violation.id,
      impact: violation.impact!,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
}

/** A screen is ready when its loading indicators are gone and the network is quiet. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

/**
 * Counts the page's requests in flight, for `quiet`: after a navigation inside the app the page's load states have
 * long been reached, so `networkidle` would not wait for the new screen's code and data.
 */
function trackRequests(page: Page) {
  // The requests themselves, not a count: one that started before tracking began (the sign-in's) and ends after it
  // would otherwise take the count below zero, and the page would never look quiet.
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /** Call as a navigation starts: the quiet that counts begins after it. */
    navigating: () => {
      lastChange = Date.now();
    },
    /** Waits until no request has been in flight for 500 ms (what `networkidle` means), and the loading indicators are gone. */
    quiet: async () => {
      await expect.poll(() => inFlight.size === 0 && Date.now() - lastChange >= 500, { intervals: [100] }).toBe(true);
      await expect(page.getByRole('progressbar')).toHaveCount(0);
    },
  };
}

/**
 * Opens a route the way the app's own links do (a history entry the router reads), so the signed-in app is not
 * loaded again from scratch for each of the sweep's routes; the screen drawn is the same as on a full load.
 */
async function openInApp(page: Page, route: string) {
  await page.evaluate((path) => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    window.history.pushState({ usr: null, key: `a11y-${index + 1}`, idx: index + 1 }, '', path);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, route);
  const target = new URL(route, 'http://app');
  await expect(page).toHaveURL((url) => url.pathname === target.pathname && url.search === target.search);
}

test('every public page has no serious or critical WCAG 2.1 AA violation', async ({ page }) => {
  const findings: Finding[] = [];
  for (const route of [SIGN_IN_PATH, FORGOT_PASSWORD_PATH, NOT_FOUND_PATH]) {
    await page.goto(route);
    await settled(page);
    findings.push(...(await seriousViolations(page, route)));
  }
  expect(findings).toEqual([]);
});

/** Every product route: the sidebar's, every detail route, the Capturas detail panel, a request being edited, a bad id. */
const SWEEP: SweepRoute[] = [
  ...PRODUCT_SCREENS,
  { route: '/origination/request-list?id=', resolve: async (page) => `/origination/request-list?id=${(await disbursedRequest(page)).id}` },
  {
    route: '/origination/request-new?edit=',
    resolve: async (page) => `/origination/request-new?edit=${(await first(page, '/api/requests?pageSize=10&status=capturada')).id}`,
  },
  { route: '/origination/pre-request-edit/no-existe' },
  { route: '/dashboard/default' },
];

/**
 * The sweep in two halves, run side by side (this file's tests run in parallel): each signs in once and opens its
 * routes inside the app, each route checked once.
 */
const HALVES = 2;
for (let half = 0; half < HALVES; half++) {
  test(`every product route, detail routes included, has no serious or critical WCAG 2.1 AA violation (${half + 1} of ${HALVES})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await signIn(page, ACCOUNTS.admin);
    await expect(page).toHaveURL(/\/home$/);

    const findings: Finding[] = [];
    const network = trackRequests(page);
    for (const { route: template, resolve } of SWEEP.filter((_, index) => index % HALVES === half)) {
      const route = resolve ? await resolve(page) : template;
      network.navigating();
      await openInApp(page, route);
      // The locator, not the role: an open panel hides the page behind it from the accessibility tree.
      await expect(page.locator('main'), route).toBeVisible();
      await network.quiet();
      findings.push(...(await seriousViolations(page, route)));
    }
    expect(findings).toEqual([]);
  });
}

test('the clerk at 1440 px: key columns in view with status first, Enter opens a row, the panel below the app bar', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/origination/request-list');
  const grid = page.getByRole('grid', { name: 'Capturas' });
  // Capturas loads cold (the grid's code and the first page) while the sweep runs beside it: it may take a while.
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await settled(page);

  // Every key column is drawn (the grid draws only what is in view) and ends inside the grid: no sideways scroll.
  const gridBox = (await grid.boundingBox())!;
  const key = ['folio', 'status', 'clientName', 'amount', 'installment', 'documents', 'createdBy', 'createdAt'];
  const shown = await grid
    .locator('.MuiDataGrid-columnHeader[data-field]')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-field')));
  expect(shown.filter((field) => key.includes(field!))).toEqual(key);
  for (const field of key) {
    const box = (await grid.locator(`.MuiDataGrid-columnHeader[data-field="${field}"]`).boundingBox())!;
    expect(box.x + box.width, `${field} en pantalla`).toBeLessThanOrEqual(gridBox.x + gridBox.width + 1);
  }

  // Keyboard: a focused row opens with Enter.
  const panel = page.getByRole('dialog', { name: 'Detalle de la solicitud' });
  // A click opens the row too; close that panel (once it is there) before trying the keyboard.
  await grid.getByRole('row').nth(1).getByRole('gridcell').first().click();
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await grid.getByRole('row').nth(1).getByRole('gridcell').first().focus();
  await page.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  const title = panel.getByRole('heading', { level: 2 }).first();
  await expect(title).toContainText('Solicitud SOL-');
  for (const element of [title, panel.getByRole('button', { name: 'Cerrar detalle' })]) {
    const box = (await element.boundingBox())!;
    expect(box.y, 'debajo de la barra superior').toBeGreaterThanOrEqual(64);
  }
  await page.screenshot({ path: `${SCREENSHOTS}/capturas-detalle-1440.png` });
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.screenshot({ path: `${SCREENSHOTS}/capturas-1440.png` });
});

test('on a 390 px phone: the menu opens below the app bar and the users list fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  const first = sidebar(page).getByRole('link', { name: 'Lista de usuarios' });
  await expect(first).toBeVisible();
  expect((await first.boundingBox())!.y).toBeGreaterThanOrEqual(64);
  await first.click();
  await expect(page).toHaveURL(/\/user\/user-list/);
  await expect(page.getByRole('grid', { name: 'Usuarios' }).getByRole('row').nth(1)).toBeVisible();
  await settled(page);
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('main *'))
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName}.${element.className.toString().slice(0, 60)} → ${Math.round(element.getBoundingClientRect().right)}`,
      ),
  );
  expect(wide, 'sin desplazamiento horizontal').toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}/usuarios-390.png` });
});

test('a failed save on the request form: focus on the first bad field, a summary by the button', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/origination/request-new');
  await page.getByRole('button', { name: 'Guardar solicitud' }).click();
  await expect(page.getByText(/No se guardó: revisa los \d+ campos marcados/)).toBeVisible();
  await expect(page.getByLabel('CURP')).toBeFocused();
  await expect(page.getByLabel('CURP')).toBeInViewport();
  await page.screenshot({ path: `${SCREENSHOTS}/solicitud-error-1280.png` });
});
