import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { FORGOT_PASSWORD_PATH, NOT_FOUND_PATH, SIGN_IN_PATH } from '@portal/contract';
import { ACCOUNTS, sidebar, signIn } from './support';
import { seriousViolations, type Finding } from './axe';
import { disbursedRequest, first, openInApp, trackRequests, type SweepRoute } from './product-routes';

/**
 * WCAG 2.1 AA on every route (axe-core): 0 serious and 0 critical violations, so a new screen that regresses fails.
 * Every product screen (the contract's sidebar and detail routes, with real ids from the demo seed) is checked where
 * bundle-budget.spec.ts opens it cold, one load for both checks; here the public pages, and the states a cold load of a
 * sidebar route does not show (Capturas' detail panel, a request being edited, a bad id, the template's demo area).
 */
// The checks are independent: both workers may take them.
test.describe.configure({ mode: 'parallel' });

/**
 * The README's screenshots of the corrected screens, written by these tests: into docs/screenshots with
 * `UPDATE_SCREENSHOTS=1 npm run test:e2e`, otherwise beside the test results, so a plain test run leaves the tree clean.
 */
const SCREENSHOTS = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots' : '../test-results/screenshots', import.meta.url),
);

/** A screen is ready when its loading indicators are gone and the network is quiet. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
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

/** The states a product screen's cold load does not show. */
const STATES: SweepRoute[] = [
  { route: '/origination/request-list?id=', resolve: async (page) => `/origination/request-list?id=${(await disbursedRequest(page)).id}` },
  // The oldest capturada, the seed's: the newest may be one a journey beside this has just saved and is about to send
  // to validation, which would be no longer editable when its form opens.
  {
    route: '/origination/request-new?edit=',
    resolve: async (page) =>
      `/origination/request-new?edit=${(await first(page, '/api/requests?pageSize=10&status=capturada&sort=createdAt')).id}`,
  },
  { route: '/origination/pre-request-edit/no-existe' },
  { route: '/dashboard/default' },
];

test('Capturas with a request open, a request being edited, a bad id and the demo area have no serious or critical WCAG 2.1 AA violation', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const findings: Finding[] = [];
  const network = trackRequests(page);
  for (const { route: template, resolve } of STATES) {
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
