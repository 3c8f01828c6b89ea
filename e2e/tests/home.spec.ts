import { expect, test } from '@playwright/test';
import { ACCOUNTS, signIn } from './support';

// Crédito Nómina Plus: no other spec changes its portfolio, so its figures hold still while this one compares them.
test('the home shows the portfolio at the fecha flujo, its chart, and each figure opens the list with the same figure', async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.plus);
  await expect(page).toHaveURL(/\/home$/);
  const figures = page.getByRole('region', { name: 'Cifras de la cartera' });
  await expect(figures).toBeVisible();
  await expect(page.getByText(/^Cifras a la fecha flujo: \d{2}\/\d{2}\/\d{4}\./)).toBeVisible();
  // The aging chart is drawn with boxes (no chart library), beside a table of the same figures.
  await expect(page.getByRole('table', { name: 'Saldo por antigüedad' })).toBeVisible();

  // "Créditos activos" on the home is the credits list's count for vigentes plus vencidos.
  const card = figures.getByRole('link', { name: /Saldo de la cartera/ });
  const balance = await card.getByText(/^\$[\d,]+\.\d{2}$/).textContent();
  const active = await card.getByText(/ créditos activos$/).textContent();
  const vencidos = figures.getByRole('link', { name: /Créditos vencidos/ });
  const vencidosCount = await vencidos.getByText(/^[\d,]+$/).textContent();
  await vencidos.click();
  await expect(page).toHaveURL(/\/wallet\/credits\/credits-list\?status=vencido$/);
  const totals = page.getByRole('group', { name: 'Totales del filtro' });
  await expect(totals).toContainText(`Créditos: ${vencidosCount}`);

  await page.goto('/wallet/credits/credits-list?status=vigente');
  const vigentes = Number((await totals.getByText(/^Créditos: [\d,]+$/).textContent())!.replace(/\D/g, ''));
  expect(vigentes + Number(vencidosCount!.replace(/\D/g, ''))).toBe(Number(active!.replace(/\D/g, '')));
  expect(Number(active!.replace(/\D/g, ''))).toBeGreaterThan(0);
  expect(balance).not.toBe('$0.00');

  // A bucket in the table beside the chart opens the credits of that bucket.
  await page.goto('/home');
  await page.getByRole('table', { name: 'Saldo por antigüedad' }).getByRole('link', { name: 'Al corriente' }).click();
  await expect(page).toHaveURL(/\/wallet\/credits\/credits-list\?bucket=current$/);
  await expect(page.getByRole('grid', { name: 'Créditos' })).toBeVisible();
});
