import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { DETAIL_ROUTE_PERMISSIONS } from '@portal/contract';
import { FORGOT_PASSWORD_PATH, HOME_PATH, NAV_GROUPS, NOT_FOUND_PATH, SIGN_IN_PATH } from '@portal/contract';
import { ACCOUNTS, SESSION_KEY, sidebar, signIn } from './support';

/**
 * WCAG 2.1 AA on every route (axe-core): 0 serious and 0 critical violations, so a new screen that regresses fails
 * here. The list of routes is the contract's (sidebar, detail routes with real ids from the demo seed), not a copy.
 */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * The README's screenshots of the corrected screens, written by these tests: into docs/screenshots with
 * `UPDATE_SCREENSHOTS=1 npm run test:e2e`, otherwise beside the test results, so a plain test run leaves the tree clean.
 */
const SCREENSHOTS = fileURLToPath(new URL(process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots' : '../test-results/screenshots', import.meta.url));

interface Finding {
  route: string;
  rule: string;
  impact: string;
  targets: string[];
}

async function seriousViolations(page: Page, route: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ route, rule: violation.id, impact: violation.impact!, targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')) }));
}

/** A screen is ready when its loading indicators are gone and the network is quiet. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
}

async function api<T>(page: Page, path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!).token.accessToken as string, SESSION_KEY);
  const headers = { authorization: `Bearer ${token}` };
  const response = body === undefined ? await page.request.get(path, { headers }) : await page.request.post(path, { headers, data: body });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

type Catalog = { agreements: { id: string; products: { id: string; terms: number[] }[] }[] };

/** The administrator's own draft pre-request (the list shows each clerk their own), for its edit route. */
async function ownPreRequest(page: Page): Promise<string> {
  const mine = (await api<Items>(page, '/api/pre-requests?pageSize=10')).items[0];
  if (mine) return mine.id;
  const agreement = (await api<Catalog>(page, '/api/pre-requests/catalog')).agreements[0]!;
  const product = agreement.products[0]!;
  const draft = await api<{ id: string }>(page, '/api/pre-requests', {
    curp: 'PXNE660720HMCXTN06', rfc: '', firstNames: 'Prueba', lastName1: 'Accesible', lastName2: '', agreementId: agreement.id, productId: product.id,
    employeeNumber: 'A-11Y', netSalary: '9000', otherDeductions: '0', amount: '10000', term: product.terms[0]!,
  });
  return draft.id;
}

type Items = { items: { id: string; creditId?: string | null }[] };

test('every public page has no serious or critical WCAG 2.1 AA violation', async ({ page }) => {
  const findings: Finding[] = [];
  for (const route of [SIGN_IN_PATH, FORGOT_PASSWORD_PATH, NOT_FOUND_PATH]) {
    await page.goto(route);
    await settled(page);
    findings.push(...(await seriousViolations(page, route)));
  }
  expect(findings).toEqual([]);
});

test('every product route, detail routes included, has no serious or critical WCAG 2.1 AA violation', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);

  // Real ids from the demo seed for every detail route.
  const user = (await api<Items>(page, '/api/users?pageSize=10')).items[0]!;
  const agreement = (await api<Items>(page, '/api/agreements?pageSize=10')).items[0]!;
  const disbursed = (await api<Items>(page, '/api/requests?pageSize=10&status=dispersada')).items[0]!;
  const captured = (await api<Items>(page, '/api/requests?pageSize=10&status=capturada')).items[0]!;
  const ids: Record<keyof typeof DETAIL_ROUTE_PERMISSIONS, string> = {
    '/user/user-edit/:id': user.id,
    '/origination/pre-request-edit/:id': await ownPreRequest(page),
    '/catalog/contract-edit/:id': agreement.id,
    '/wallet/credits/credits-view/:id': disbursed.creditId!,
    '/admon-wallet/report-edit/:id': '1',
  };
  const routes = [
    HOME_PATH,
    ...NAV_GROUPS.flatMap((group) => group.items.map((entry) => entry.path)),
    ...Object.entries(ids).map(([path, id]) => path.replace(':id', id)),
    // The Capturas detail panel, a request being edited, and a bad id.
    `/origination/request-list?id=${disbursed.id}`,
    `/origination/request-new?edit=${captured.id}`,
    '/origination/pre-request-edit/no-existe',
    '/dashboard/default',
  ];

  const findings: Finding[] = [];
  for (const route of routes) {
    await page.goto(route);
    // The locator, not the role: an open panel hides the page behind it from the accessibility tree.
    await expect(page.locator('main'), route).toBeVisible();
    await settled(page);
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
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  await settled(page);

  // Every key column is drawn (the grid draws only what is in view) and ends inside the grid: no sideways scroll.
  const gridBox = (await grid.boundingBox())!;
  const key = ['folio', 'status', 'clientName', 'amount', 'installment', 'documents', 'createdBy', 'createdAt'];
  const shown = await grid.locator('.MuiDataGrid-columnHeader[data-field]').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-field')));
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
      .map((element) => `${element.tagName}.${element.className.toString().slice(0, 60)} → ${Math.round(element.getBoundingClientRect().right)}`),
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
