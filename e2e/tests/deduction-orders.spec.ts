import { expect, test } from '@playwright/test';
import type { DeductionOrderOption, EmployerStatement } from '@portal/contract';
import { api } from './product-routes';
import { ACCOUNTS, signIn } from './support';

const day = (isoDate: string) => isoDate.split('-').reverse().join('/');

/**
 * The payroll loop in the browser (issue 46): Cartera generates the next payday's cédula of an agreement, emits it
 * behind a confirmation whose No holds the focus, downloads it in the agreement's layout; then the employer statement
 * of the month shows, for a payday the demo's files answered, what was instructed, received and missing, and the
 * missing lines as the follow-up list, exported to Excel.
 */
test('Cartera generates, emits and downloads a cédula, and follows the missing deductions in the employer statement', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);

  // The agreement whose next payday has no cédula yet (the seed emitted only paydays already past).
  const options = await api<DeductionOrderOption[]>(page, '/api/deduction-orders/options');
  const option = options.find((entry) => entry.frozenPaydays.length === 0) ?? options[0]!;

  await page.goto('/wallet/deduction-orders');
  await expect(page.getByRole('heading', { name: 'Cédulas de descuento' })).toBeVisible();
  await page.getByLabel('Convenio a generar').click();
  await page.getByRole('option', { name: option.agreement, exact: true }).click();
  await expect(page.getByText(`se genera la cédula del día de pago ${day(option.nextPayday)}`)).toBeVisible();
  await page.getByRole('button', { name: 'Generar' }).click();
  await expect(page).toHaveURL(/\/wallet\/deduction-orders\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `Cédula del ${day(option.nextPayday)} · ${option.agreement}` })).toBeVisible();

  await page.getByRole('button', { name: 'Emitir' }).click();
  const confirm = page.getByRole('dialog', { name: 'Emitir cédula' });
  await expect(confirm.getByRole('button', { name: 'No' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Sí' }).click();
  await expect(page.getByText('Cédula emitida.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Marcar enviada' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar en el layout del convenio' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^cedula-.*${option.nextPayday}.*\\.(csv|xlsx|txt)$`));

  // The statement of the month: a payday of the demo's files with both received and missing deductions.
  const month = new Date().toISOString().slice(0, 7);
  const statement = await api<EmployerStatement>(page, `/api/employer-statement?month=${month}`);
  const followed = statement.paydays.find((entry) => entry.missing.count > 0 && entry.received.count > 0);
  expect(followed, `a payday of ${month} with received and missing deductions`).toBeDefined();
  const payday = followed!;

  await page.goto('/wallet/employer-statement');
  await expect(page.getByRole('heading', { name: 'Estado de cuenta por convenio' })).toBeVisible();
  await page.getByLabel('Convenio', { exact: true }).click();
  await page.getByRole('option', { name: payday.agreement, exact: true }).click();
  const table = page.getByRole('table', { name: 'Estado de cuenta del mes' });
  const missing = table.getByRole('button', { name: `Faltante de ${payday.agreement} del ${day(payday.payday)}` });
  await expect(missing).toContainText(`${payday.missing.count.toLocaleString('es-MX')} ·`);
  await missing.click();
  const lines = page.getByRole('grid', { name: `Líneas: Faltante · ${payday.agreement} · ${day(payday.payday)}` });
  // The first missing line under the header row, with its instructed amount and nothing received.
  await expect(lines.getByRole('row').nth(1)).toContainText('—');

  const exporting = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar a Excel' }).click();
  expect((await exporting).suggestedFilename()).toBe(`faltantes-${payday.payday}.xlsx`);
});
