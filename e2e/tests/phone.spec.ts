import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, signIn } from './support';
import { PRODUCT_SCREENS, api, openInApp, resolveScreens, seededCreditId, trackRequests } from './product-routes';

/**
 * On a 390 px phone no product screen scrolls sideways: what is wider than the screen (a long table) scrolls inside
 * its own box. The credit view's screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1.
 */
const SCREENSHOTS = fileURLToPath(
  new URL(process.env.UPDATE_SCREENSHOTS ? '../../docs/screenshots' : '../test-results/screenshots', import.meta.url),
);

/** How far the page scrolls sideways, and the elements that stick out of the screen without a scroll box of their own. */
function sideways(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow !== 'visible' && parent.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    const outside = Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > width + 1 && !clipped(element))
      .slice(0, 3)
      .map(
        (element) => `${element.tagName}.${String(element.className).slice(0, 50)} → ${Math.round(element.getBoundingClientRect().right)}`,
      );
    return { scroll: document.scrollingElement!.scrollWidth - width, outside };
  });
}

async function ready(page: Page) {
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

test('at 390 px no product screen scrolls sideways, the credit view’s tabs included', async ({ page }) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const credit = `/wallet/credits/credits-view/${await seededCreditId(page)}`;
  const routes = [
    ...(await resolveScreens(page, PRODUCT_SCREENS)),
    ...['calendario', 'pagos', 'descuentos', 'etiquetas', 'cartas', 'liquidacion', 'historial'].map((tab) => ({
      template: `${credit}?tab=${tab}`,
      route: `${credit}?tab=${tab}`,
    })),
  ];
  // Each screen opened the way the app's links open it: the app is not loaded again from scratch for each.
  const network = trackRequests(page);
  const found: string[] = [];
  for (const { template, route } of routes) {
    network.navigating();
    await openInApp(page, route);
    await expect(page.locator('main'), route).toBeVisible();
    await network.quiet();
    const { scroll, outside } = await sideways(page);
    if (scroll > 0 || outside.length > 0) found.push(`${template}: ${scroll} px ${outside.join(', ')}`);
  }
  expect(found, 'pantallas con desplazamiento horizontal').toEqual([]);
});

test('the credit view: header, tabs and the schedule in pages, on a desktop and on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  // A credit of the seed with paid rows: every paid row was paid by a payment the view lists (the seed's history once
  // paid rows with no payment, and the view said "Sin pagos aplicados").
  // The schedule and the payments are parts of their own, which their tabs read (the view's answer counts the payments).
  // A credit of Crédito Nómina Plus (the administrator sees every company): no other spec pays its credits, so its
  // payment count holds between the API's answer and the tab's name. A Financiera Demo credit may be the one a payment
  // file or a cédula's answer beside this pays in between.
  type Detail = { id: string; paymentCount: number };
  const { items: agreements } = await api<{ items: { id: string; code: string }[] }>(page, '/api/agreements?pageSize=100');
  const plus = agreements.find((agreement) => agreement.code === 'ACME-PRIV');
  expect(plus, 'el convenio de Crédito Nómina Plus').toBeDefined();
  let paid: Detail | undefined;
  for (const { id } of (await api<{ items: { id: string }[] }>(page, `/api/credits?agreementId=${plus!.id}&status=vigente&pageSize=20`))
    .items) {
    const schedule = await api<{ items: { status: string }[] }>(page, `/api/credits/${id}/installments`);
    if (schedule.items.some((row) => row.status === 'pagada')) {
      paid = await api<Detail>(page, `/api/credits/${id}`);
      break;
    }
  }
  expect(paid, 'un crédito con amortizaciones pagadas').toBeDefined();
  expect(paid!.paymentCount).toBeGreaterThan(0);
  const { items: payments } = await api<{ items: unknown[] }>(page, `/api/credits/${paid!.id}/payments`);
  expect(payments).toHaveLength(paid!.paymentCount);
  const credit = `/wallet/credits/credits-view/${paid!.id}`;
  await page.goto(credit);
  await ready(page);
  await expect(page.getByRole('tab', { name: 'Resumen' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Estado del crédito')).toContainText('Próximo descuento');
  await page.screenshot({ path: `${SCREENSHOTS}/credito-resumen-1280.png` });

  await page.getByRole('tab', { name: 'Calendario de pagos' }).click();
  await expect(page).toHaveURL(/tab=calendario/);
  await expect(page.getByRole('table', { name: 'Calendario de pagos' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/credito-calendario-1280.png` });

  await page.getByRole('tab', { name: `Pagos (${paid!.paymentCount})` }).click();
  await expect(page).toHaveURL(/tab=pagos/);
  // The seeded history is paid through payments: the credit's paid rows have theirs.
  await expect(page.getByRole('table', { name: 'Pagos del crédito' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/credito-pagos-1280.png` });

  // A reload comes back to the tab the URL names.
  await page.reload();
  await ready(page);
  await expect(page.getByRole('tab', { name: /^Pagos/ })).toHaveAttribute('aria-selected', 'true');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${credit}?tab=calendario`);
  await ready(page);
  await page.screenshot({ path: `${SCREENSHOTS}/credito-calendario-390.png` });
});
