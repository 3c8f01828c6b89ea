import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { DEDUCTION_MOVEMENT_CODES, type DeductionOrderLine, type DeductionOrderOption, type EmployerStatement } from '@portal/contract';
import { api } from './product-routes';
import { ACCOUNTS, chooseOption, signIn } from './support';

const day = (isoDate: string) => isoDate.split('-').reverse().join('/');
const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
const pesos = (amount: number) => money.format(amount);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The same day `months` months before or after (the 1st: only the month is read). */
const addMonths = (isoDate: string, months: number) => {
  const date = new Date(`${isoDate.slice(0, 7)}-01T12:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
};

/**
 * The payroll loop in the browser (issue 46): Cartera generates the next payday's cédula of an agreement, emits it
 * behind a confirmation whose No holds the focus, downloads it in the agreement's layout; then answers, as the employer
 * would, the cédula still waiting for its file: downloaded in the agreement's layout, turned into the employer's payment
 * file with one line left out, uploaded and applied through Carga archivos de pagos. The employer statement then shows
 * that payday's received lines and the one missing, the follow-up list exported to Excel.
 */
test('Cartera generates, emits and downloads a cédula, loads the employer answer with a line missing, and follows it in the employer statement', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);

  // The agreement whose next payday has no cédula yet (the seed emitted only paydays already past).
  const options = await api<DeductionOrderOption[]>(page, '/api/deduction-orders/options');
  const option = options.find((entry) => entry.frozenPaydays.length === 0) ?? options[0]!;

  await page.goto('/wallet/deduction-orders');
  await expect(page.getByRole('heading', { name: 'Cédulas de descuento' })).toBeVisible();
  await chooseOption(page, 'Convenio a generar', option.agreement);
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

  // The employer's answer. The payday just emitted is still to come (a file is loaded for a payday the fecha flujo has
  // reached), so the answer is to the last cédula an employer has not answered yet: the demo's federal agreement, whose
  // cédula of its last payday was sent and whose deductions are en tránsito (seed-payment-files.ts). Its cédula,
  // downloaded from its screen, is turned into the employer's file in the same layout, with one line left out.
  const monthOf = (isoDate: string) => isoDate.slice(0, 7);
  const months = [...new Set([monthOf(option.businessDate), monthOf(addMonths(option.businessDate, -1))])];
  const unanswered = (await Promise.all(months.map((month) => api<EmployerStatement>(page, `/api/employer-statement?month=${month}`))))
    .flatMap((statement) => statement.paydays)
    .filter((entry) => {
      const businessDate = options.find((candidate) => candidate.agreementId === entry.agreementId)?.businessDate ?? '';
      return entry.payday < businessDate && entry.received.count === 0 && entry.instructed.count > 1;
    });
  expect(unanswered, 'the cédula of a past payday whose employer has not sent its file').toHaveLength(1);
  const payday = unanswered[0]!;
  await page.goto(`/wallet/deduction-orders?agreementId=${payday.agreementId}&status=enviada`);
  const orders = page.getByRole('grid', { name: 'Cédulas de descuento' });
  await orders
    .getByRole('row')
    .filter({ hasText: day(payday.payday) })
    .filter({ hasText: payday.agreement })
    .filter({ hasText: 'enviada' })
    .click();
  await expect(page.getByRole('heading', { name: `Cédula del ${day(payday.payday)} · ${payday.agreement}` })).toBeVisible();
  const answering = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar en el layout del convenio' }).click();
  const instruction = await answering;
  const code = /^cedula-(.+)-\d{4}-\d{2}-\d{2}\.txt$/.exec(instruction.suggestedFilename())?.[1];
  expect(code, `${instruction.suggestedFilename()}: the cédula of ${payday.payday} in the fixed-width layout`).toBeDefined();
  expect(instruction.suggestedFilename()).toContain(payday.payday);
  const cedula = (await readFile(await instruction.path(), 'utf8')).split('\r\n').filter((line) => line !== '');
  // The file's lines are the cédula's, in its order (the screen's lines, read a page at a time).
  const instructed: DeductionOrderLine[] = [];
  for (let number = 1; instructed.length < cedula.length; number++) {
    const { items } = await api<{ items: DeductionOrderLine[] }>(
      page,
      `/api/deduction-orders/${payday.orderId}/lines?pageSize=100&page=${number}`,
    );
    expect(items.length).toBeGreaterThan(0);
    instructed.push(...items);
  }
  expect(instructed).toHaveLength(cedula.length);
  instructed.forEach((line, index) => expect(cedula[index]).toContain(line.curp));
  // The layout names no movement column: each line ends with its code (A, B, C, N) after the layout's last field.
  instructed.forEach((line, index) => expect(cedula[index]!.at(-1)).toBe(DEDUCTION_MOVEMENT_CODES[line.movement]));
  // The employer deducts every instructed line (not the bajas) but the first: that one is the follow-up.
  const deducted = instructed
    .map((line, index) => ({ line, text: cedula[index]!.slice(0, -1) }))
    .filter(({ line }) => line.movement !== 'baja');
  expect(deducted).toHaveLength(payday.instructed.count);
  const [left, ...sent] = deducted as [(typeof deducted)[number], ...typeof deducted];
  const sentCents = sent.reduce((sum, { line }) => sum + Math.round(Number(line.amountAfter) * 100), 0);
  const answer = `${sent.map(({ text }) => text).join('\r\n')}\r\n`;

  await page.goto('/wallet/upload-file-pay');
  await expect(page.getByRole('heading', { name: 'Carga archivos de pagos' })).toBeVisible();
  await chooseOption(page, 'Convenio', new RegExp(`^${escape(payday.agreement)}`));
  await chooseOption(page, 'Fecha de descuento', day(payday.payday));
  await expect(page.getByRole('combobox', { name: 'Fecha de descuento' })).toHaveText(day(payday.payday));
  const fileName = `respuesta-${code!.toLowerCase()}-${payday.payday}.txt`;
  await page.getByLabel('Archivo de pagos').setInputFiles({ name: fileName, mimeType: 'text/plain', buffer: Buffer.from(answer, 'utf8') });
  const preview = page.getByRole('region', { name: 'Vista previa' });
  await expect(preview.getByText(fileName, { exact: true })).toBeVisible();
  const total = pesos(sentCents / 100);
  await expect(
    preview
      .getByLabel('Totales del archivo')
      .locator('div')
      .filter({ has: page.getByText('Filas válidas', { exact: true }) })
      .locator('dd'),
  ).toHaveText(`${sent.length.toLocaleString('es-MX')} · ${total}`);
  await page.getByRole('group', { name: 'Acciones del archivo' }).getByRole('button', { name: 'Aplicar' }).click();
  await page.getByRole('dialog', { name: 'Aplicar archivo' }).getByRole('button', { name: 'Sí' }).click();
  await expect(preview.getByText(`Archivo aplicado: ${sent.length.toLocaleString('es-MX')} pagos por ${total}.`)).toBeVisible();

  // The statement of that payday: what the file paid is received, the line left out is the one missing.
  await page.goto('/wallet/employer-statement');
  await expect(page.getByRole('heading', { name: 'Estado de cuenta por convenio' })).toBeVisible();
  await page.getByLabel('Mes', { exact: true }).fill(monthOf(payday.payday));
  await chooseOption(page, 'Convenio', payday.agreement);
  const table = page.getByRole('table', { name: 'Estado de cuenta del mes' });
  const figure = (name: string) => table.getByRole('button', { name: `${name} de ${payday.agreement} del ${day(payday.payday)}` });
  await expect(figure('Recibido')).toHaveText(`${sent.length.toLocaleString('es-MX')} · ${total}`);
  await expect(figure('Faltante')).toContainText('1 ·');
  await figure('Faltante').click();
  const lines = page.getByRole('grid', { name: `Líneas: Faltante · ${payday.agreement} · ${day(payday.payday)}` });
  // The header row and the one line left out, with its instructed amount and nothing received.
  await expect(lines.getByRole('row')).toHaveCount(2);
  await expect(lines.getByRole('row').nth(1)).toContainText(left.line.creditFolio);
  await expect(lines.getByRole('row').nth(1)).toContainText('—');

  const exporting = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar a Excel' }).click();
  expect((await exporting).suggestedFilename()).toBe(`faltantes-${payday.payday}.xlsx`);
});
