import { expect, test, type Page } from '@playwright/test';
import type { Credit, CreditDeduction, CreditListItem, Payment, UploadOption } from '@portal/contract';
import { ACCOUNTS, SESSION_KEY, chooseOption, signIn } from './support';

const AGREEMENT = 'Gobierno del Estado de Jalisco — burocracia';
/** An employee number the demo never gives (it draws E-10000 to E-99999): no credit answers to it. */
const UNKNOWN_EMPLOYEE = 'E-00001';

const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
const pesos = (amount: string | number) => money.format(Number(amount));
const day = (isoDate: string) => isoDate.split('-').reverse().join('/');

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!).token.accessToken as string, SESSION_KEY);
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

interface Payee {
  id: string;
  folio: string;
  employeeNumber: string;
  curp: string;
  amount: string;
  period: number;
}

/**
 * Three open credits of the agreement that the payroll of `discountDate` deducts, each with a different employee
 * number: the rows of the employer's file that pay them, by employee number as the agreement's layout says.
 */
async function payeesOf(page: Page, agreementId: string, discountDate: string): Promise<Payee[]> {
  const list = await api<{ items: CreditListItem[] }>(
    page,
    `/api/credits?agreementId=${agreementId}&status=vigente&sort=folio&pageSize=100`,
  );
  const payees: Payee[] = [];
  for (const item of list.items) {
    if (payees.length === 3) break;
    if (item.disbursementDate > discountDate) continue;
    const credit = await api<Credit>(page, `/api/credits/${item.id}`);
    const { items: deductions } = await api<{ items: CreditDeduction[] }>(page, `/api/credits/${item.id}/deductions`);
    const deduction = deductions.find((entry) => entry.discountDate === discountDate);
    if (!deduction || Number(deduction.amount) >= Number(item.outstandingBalance)) continue;
    if (payees.some((payee) => payee.employeeNumber === credit.employeeNumber)) continue;
    payees.push({
      id: credit.id,
      folio: credit.folio,
      employeeNumber: credit.employeeNumber,
      curp: credit.curp,
      amount: deduction.amount,
      period: deduction.period,
    });
  }
  expect(payees, `credits of ${AGREEMENT} deducted on ${discountDate}`).toHaveLength(3);
  return payees;
}

test('Cartera loads a payroll file with bad rows, applies it, follows a payment to the credit and the report, and reverts the file', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);

  const option = (await api<UploadOption[]>(page, '/api/payment-files/upload-options')).find((entry) => entry.agreement === AGREEMENT)!;
  expect(option.format).toBe('csv');
  const discountDate = option.suggestedDate!;
  const payees = await payeesOf(page, option.agreementId, discountDate);
  const [first, second] = payees as [Payee, Payee, Payee];

  // The employer's csv: the three deductions, then a row of nobody, an amount that is no number and a formula.
  const reference = `E2E${Date.now()}`;
  const fileName = `gob-jal-${reference.toLowerCase()}.csv`;
  const csv = [
    'numero_empleado,curp_rfc,importe,periodo,referencia',
    ...payees.map((payee) => `${payee.employeeNumber},${payee.curp},${payee.amount},${payee.period},${reference}`),
    `${UNKNOWN_EMPLOYEE},XAXX010101000,850.00,1,${reference}`,
    `${second.employeeNumber},${second.curp},abc,${second.period},${reference}`,
    `${first.employeeNumber},${first.curp},${first.amount},${first.period},=1+1`,
  ].join('\r\n');
  const totalCents = payees.reduce((sum, payee) => sum + Math.round(Number(payee.amount) * 100), 0);
  const total = pesos(totalCents / 100);

  // Carga archivos de pagos: agreement, its suggested discount date, and the file.
  await page.goto('/wallet/upload-file-pay');
  await expect(page.getByRole('heading', { name: 'Carga archivos de pagos' })).toBeVisible();
  await chooseOption(page, 'Convenio', new RegExp(`^${AGREEMENT}`));
  await expect(page.getByLabel('Fecha de descuento', { exact: true })).toHaveText(day(discountDate));
  await expect(page.getByText('Formato del layout: CSV')).toBeVisible();
  await page.getByLabel('Archivo de pagos').setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });

  // The preview: three valid rows for the deductions' sum, three rejected, each with its reason.
  const preview = page.getByRole('region', { name: 'Vista previa' });
  await expect(preview).toBeVisible();
  await expect(page).toHaveURL(/[?&]file=[0-9a-f-]{36}/);
  const fileId = new URL(page.url()).searchParams.get('file')!;
  await expect(preview.getByText(fileName, { exact: true })).toBeVisible();
  await expect(preview.getByText('validado', { exact: true })).toBeVisible();
  const figure = (label: string) =>
    preview
      .getByLabel('Totales del archivo')
      .locator('div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd');
  await expect(figure('Filas')).toHaveText('6');
  await expect(figure('Filas válidas')).toHaveText(`3 · ${total}`);
  await expect(figure('Filas rechazadas')).toHaveText(/^3 · /);
  await expect(page.getByRole('tab', { name: 'Aceptados (3)' })).toBeVisible();
  const accepted = page.getByRole('grid', { name: 'Filas: aceptados' });
  for (const payee of payees) await expect(accepted.getByRole('row').filter({ hasText: payee.employeeNumber })).toContainText(payee.folio);

  await page.getByRole('tab', { name: 'Rechazados (3)' }).click();
  const rejected = page.getByRole('grid', { name: 'Filas: rechazados' });
  await expect(rejected.getByRole('row')).toHaveCount(4);
  await expect(rejected.getByRole('row').filter({ hasText: 'crédito no encontrado' })).toContainText(
    `El empleado ${UNKNOWN_EMPLOYEE} no tiene créditos en este convenio.`,
  );
  await expect(rejected.getByRole('row').filter({ hasText: 'monto inválido' })).toContainText('Importe no válido: "abc".');
  await expect(rejected.getByRole('row').filter({ hasText: 'dato no válido' })).toContainText(
    'Referencia: empieza con "=", parece una fórmula y no se acepta.',
  );

  // Aplicar, confirmed; the job applies the valid rows and the file ends aplicado.
  await page.getByRole('group', { name: 'Acciones del archivo' }).getByRole('button', { name: 'Aplicar' }).click();
  const confirm = page.getByRole('dialog', { name: 'Aplicar archivo' });
  await expect(confirm).toContainText(`Se aplicarán 3 filas válidas por ${total} del archivo ${fileName}`);
  await confirm.getByRole('button', { name: 'Sí' }).click();
  await expect(preview.getByText(`Archivo aplicado: 3 pagos por ${total}.`)).toBeVisible();
  await expect(preview.getByText('aplicado', { exact: true })).toBeVisible();

  // The credit shows the payment from the file, with where its pesos went.
  await page.goto(`/wallet/credits/credits-view/${first.id}?tab=pagos`);
  await expect(page.getByRole('heading', { name: `Crédito ${first.folio}` })).toBeVisible();
  const fromFile = page.getByRole('table', { name: 'Pagos del crédito' }).getByRole('row').filter({ hasText: fileName });
  await expect(fromFile).toHaveCount(1);
  await expect(fromFile).toContainText(pesos(first.amount));
  await expect(fromFile).toContainText(`${fileName}, línea 2`);
  await expect(fromFile.getByText('aplicado', { exact: true })).toBeVisible();
  const allocationLabel = `Reparto del pago del ${day(discountDate)} por ${pesos(first.amount)}`;
  await fromFile.getByRole('button', { name: allocationLabel }).click();
  await expect(fromFile.getByRole('button', { name: allocationLabel })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('table', { name: allocationLabel })).toBeVisible();

  // Reporte de pagos filtered by the file and aplicado: its three payments, each with its split, and the set's totals.
  const [payment] = (await api<{ items: Payment[] }>(page, `/api/payments?fileId=${fileId}&creditId=${first.id}`)).items;
  await page.goto(`/wallet/application-pay-list?fileId=${fileId}&status=aplicado`);
  await expect(page.getByRole('heading', { name: 'Reporte de pagos' })).toBeVisible();
  const report = page.getByRole('grid', { name: 'Pagos' });
  await expect(report.getByRole('row')).toHaveCount(4);
  const reported = report.getByRole('row').filter({ hasText: first.folio });
  await expect(reported).toContainText(`${fileName}, línea 2`);
  await expect(reported).toContainText(
    `${day(discountDate)}${pesos(first.amount)}${pesos(payment!.split.principal)}${pesos(payment!.split.interest)}`,
  );
  const totals = page.getByRole('group', { name: 'Totales del filtro' });
  await expect(totals).toContainText('Pagos aplicados: 3');
  await expect(totals).toContainText(`Importe: ${total}`);

  // The file's detail, found in the list; Revertir with a reason undoes its payments.
  await page.goto(`/wallet/files-pay-list?q=${encodeURIComponent(fileName)}`);
  const files = page.getByRole('grid', { name: 'Archivos de pagos' });
  await expect(files.getByRole('row')).toHaveCount(2);
  await files.getByRole('row').nth(1).getByText(fileName).click();
  await expect(page).toHaveURL(new RegExp(`/wallet/files-pay-detail/${fileId}$`));
  await expect(page.getByRole('heading', { name: `Archivo ${fileName}` })).toBeVisible();
  await page.getByRole('button', { name: 'Revertir' }).click();
  const revert = page.getByRole('dialog', { name: `Revertir archivo ${fileName}` });
  await revert.getByLabel('Motivo').fill('Prueba de extremo a extremo: el patrón pidió anular el archivo.');
  await revert.getByRole('button', { name: 'Revertir' }).click();
  await expect(revert).toBeHidden();
  await expect(page.getByText('Archivo revertido: sus pagos se deshicieron.')).toBeVisible();
  await expect(
    page
      .getByRole('heading', { name: `Archivo ${fileName}` })
      .locator('..')
      .getByText('revertido', { exact: true }),
  ).toBeVisible();

  await page.goto(`/wallet/credits/credits-view/${first.id}?tab=pagos`);
  await expect(page.getByRole('heading', { name: `Crédito ${first.folio}` })).toBeVisible();
  const reverted = page.getByRole('table', { name: 'Pagos del crédito' }).getByRole('row').filter({ hasText: fileName });
  await expect(reverted.getByText('revertido', { exact: true })).toBeVisible();

  // The report no longer counts them as applied: they are there as revertido.
  await page.goto(`/wallet/application-pay-list?fileId=${fileId}&status=revertido`);
  await expect(report.getByRole('row')).toHaveCount(4);
  await expect(totals).toContainText('Pagos revertidos: 3');
  await page.goto(`/wallet/application-pay-list?fileId=${fileId}&status=aplicado`);
  await expect(page.getByText('No hay pagos con estos filtros.')).toBeVisible();
  await expect(totals).toContainText('Pagos aplicados: 0');
});
