import { expect, test } from '@playwright/test';
import { ACCOUNTS, signIn, chooseOption } from './support';

test('credits list filtered by bucket → a credit → Cerrar día → its days past due move by one day', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);

  // A credit a few days behind: the demo's payroll missed one or two of its deductions, past the remittance lag.
  await page.goto('/wallet/credits/credits-list?sort=-daysPastDue');
  await chooseOption(page, 'Tramo de atraso', '1 a 30 días');
  await expect(page).toHaveURL(/bucket=1-30/);
  const grid = page.getByRole('grid', { name: 'Créditos' });
  const firstRow = grid.getByRole('row').nth(1);
  await expect(firstRow).toContainText('1 a 30 días');
  const folio = (await firstRow.getByRole('gridcell').first().textContent())!.trim();
  await firstRow.click();
  await expect(page.getByRole('heading', { name: `Crédito ${folio}` })).toBeVisible();
  // The view's header: each figure a term and its value.
  const figure = (term: string) => page.locator(`dt:text-is("${term}") + dd`).first();
  await expect(figure('Tramo')).toHaveText('1 a 30 días');
  const daysBefore = Number((await figure('Días de atraso').textContent())!.trim());
  expect(daysBefore).toBeGreaterThan(0);

  await page.goto('/wallet/admin-flow-date');
  const dates = page.getByRole('table', { name: 'Fecha flujo por empresa' });
  const demo = dates.getByRole('row', { name: /Financiera Demo/ });
  const before = (await demo.getByRole('cell').nth(1).textContent())!.trim();
  await demo.getByRole('button', { name: 'Cerrar día' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cerrar día' });
  await expect(dialog).toContainText(`Se cerrará el día ${before} de Financiera Demo`);
  await dialog.getByRole('button', { name: 'Sí' }).click();
  // The close runs as a job; the history shows it once done, and the business date moves to the next day.
  await expect(page.getByRole('grid', { name: 'Historial de cierres' }).getByRole('row').nth(1)).toContainText(before);
  await expect(demo.getByRole('cell').nth(1)).not.toHaveText(before);

  // Closing the day ages every late credit by one day.
  await page.goto(`/wallet/credits/credits-list?q=${folio}`);
  const row = page.getByRole('grid', { name: 'Créditos' }).getByRole('row').nth(1);
  await expect(row).toContainText(folio);
  await row.click();
  await expect(figure('Días de atraso')).toHaveText(String(daysBefore + 1));
});
