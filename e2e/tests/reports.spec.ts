import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import type { CreditListItem } from '@portal/contract';
import { ACCOUNTS, SESSION_KEY, chooseOption, signIn } from './support';

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!).token.accessToken as string, SESSION_KEY);
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

test('an administrator defines a report, runs it, downloads the xlsx and finds the credit list’s figures in it', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const name = `Cartera al corriente ${Date.now()}`;

  // Admon Cartera → Nuevo Reporte Operativo: four columns in the order a collector reads them, a bucket asked at run time.
  await page.goto('/admon-wallet/reports-new');
  await page.getByRole('textbox', { name: 'Nombre del reporte' }).fill(name);
  for (const field of ['Folio', 'Acreditado', 'Fecha de dispersión', 'Saldo total'])
    await page.getByRole('button', { name: `Agregar ${field}` }).click();
  await page.getByRole('button', { name: 'Subir Saldo total' }).click();
  await page.getByRole('checkbox', { name: 'Tramo de atraso' }).check();
  await page.getByRole('checkbox', { name: 'Administrador' }).check();
  await page.getByRole('button', { name: 'Guardar reporte' }).click();
  await expect(page).toHaveURL(/\/admon-wallet\/report-edit\//);
  await expect(page.getByText('Reporte creado.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Cartera → Reportes Operativos: choose it, ask for the credits al corriente, run it and wait for its file.
  await page.goto('/wallet/operative-report');
  await chooseOption(page, 'Reporte', name);
  await chooseOption(page, 'Tramo de atraso', 'Al corriente');
  await page.getByRole('button', { name: 'Ejecutar' }).click();
  await expect(page.getByText(`«${name}» en proceso.`, { exact: false })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Tramo de atraso: Al corriente')).toBeVisible();
  const download = row.getByRole('button', { name: /^Descargar / });
  await expect(download).toBeVisible();

  const downloaded = page.waitForEvent('download');
  await download.click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/^cartera-al-corriente-\d+-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await file.path());
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).values).toEqual([undefined, 'Folio', 'Acreditado', 'Saldo total', 'Fecha de dispersión']);
  expect(sheet.rowCount).toBeGreaterThan(1);

  // The first row, checked against the credit as the Créditos list answers for its folio.
  const first = sheet.getRow(2);
  const folio = String(first.getCell(1).value);
  const [credit] = (await api<{ items: CreditListItem[] }>(page, `/api/credits?q=${encodeURIComponent(folio)}`)).items;
  expect(credit, `credit ${folio}`).toBeTruthy();
  expect(credit!.bucket).toBe('current');
  expect([first.getCell(1).value, first.getCell(2).value, first.getCell(3).value, first.getCell(4).value]).toEqual([
    credit!.folio,
    credit!.clientName,
    Number(credit!.outstandingBalance),
    new Date(`${credit!.disbursementDate}T00:00:00.000Z`),
  ]);
  expect(first.getCell(3).numFmt).toBe('"$"#,##0.00');
});
