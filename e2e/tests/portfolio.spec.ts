import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, signIn } from './support';

async function chooseOption(page: Page, label: string, option: string | RegExp) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

test('credits list filtered by bucket → a credit → Cerrar día → its days past due move at the new business date', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);

  // The oldest credit first: the demo portfolio has no payments, so once a day closes it is far past due.
  await page.goto('/wallet/credits/credits-list?sort=disbursementDate');
  await chooseOption(page, 'Tramo de atraso', 'Al corriente');
  await expect(page).toHaveURL(/bucket=current/);
  const grid = page.getByRole('grid', { name: 'Créditos' });
  const firstRow = grid.getByRole('row').nth(1);
  await expect(firstRow).toContainText('Al corriente');
  const folio = (await firstRow.getByRole('gridcell').first().textContent())!.trim();
  await firstRow.click();
  await expect(page.getByRole('heading', { name: `Crédito ${folio}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^0 días de atraso · Al corriente/)).toBeVisible();

  await page.goto('/wallet/admin-flow-date');
  const dates = page.getByRole('table', { name: 'Fecha flujo por empresa' });
  const demo = dates.getByRole('row', { name: /Financiera Demo/ });
  const before = (await demo.getByRole('cell').nth(1).textContent())!.trim();
  await demo.getByRole('button', { name: 'Cerrar día' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cerrar día' });
  await expect(dialog).toContainText(`Se cerrará el día ${before} de Financiera Demo`);
  await dialog.getByRole('button', { name: 'Sí' }).click();
  // The close runs as a job; the history shows it once done, and the business date moves to the next day.
  await expect(page.getByRole('grid', { name: 'Historial de cierres' }).getByRole('row').nth(1)).toContainText(before, { timeout: 60_000 });
  await expect(demo.getByRole('cell').nth(1)).not.toHaveText(before);

  await page.goto(`/wallet/credits/credits-list?sort=disbursementDate&q=${folio}`);
  const row = page.getByRole('grid', { name: 'Créditos' }).getByRole('row').nth(1);
  await expect(row).toContainText('90 días o más');
  await row.click();
  await expect(page.getByText(/^[1-9]\d* días de atraso · 90 días o más/)).toBeVisible();
});
