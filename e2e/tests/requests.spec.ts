import { expect, test } from '@playwright/test';
import { buildSchedule, clabeCheckDigit, firstPayday } from '@portal/lending';
import { ACCOUNTS, sidebar, signIn, signOut, chooseOption } from './support';

const CURP = 'GOMA800101HJCRRN01';
const CLABE = `00218012345678901${clabeCheckDigit('00218012345678901')}`;
const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

test('pre-request → request with documents → approval by a second person → disbursement by a third → the credit schedule is buildSchedule', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // The administrator captures: a sent pre-request for a new client.
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/origination/pre-request-new');
  await page.getByLabel('CURP').fill(CURP);
  await page.getByLabel('Número de empleado').fill('J-2040');
  await page.getByLabel('Nombre(s)').fill('Marta');
  await page.getByLabel('Primer apellido').fill('Gómez');
  await page.getByLabel('Segundo apellido').fill('Ramos');
  await chooseOption(page, 'Convenio', /^GOB-JAL/);
  await chooseOption(page, 'Producto', /^Nómina Jalisco 24/);
  await page.getByLabel('Sueldo neto por periodo').fill('9000');
  await page.getByLabel('Monto solicitado').fill('20000');
  await chooseOption(page, 'Plazo', '24 pagos');
  await expect(page.getByLabel('Dictamen en vivo')).toContainText('Pre-aprobada');
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page).toHaveURL(/\/origination\/pre-request-edit\//);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await page.getByRole('dialog', { name: 'Enviar pre-solicitud' }).getByRole('button', { name: 'Sí' }).click();
  await expect(page.getByLabel('Estado: enviada')).toBeVisible();

  // Convert it: the request form arrives prefilled; the rest is captured with the three documents.
  await page.getByRole('link', { name: 'Convertir en solicitud' }).click();
  await expect(page).toHaveURL(/\/origination\/request-new\?preRequest=/);
  await expect(page.getByLabel('CURP')).toHaveValue(CURP);
  await expect(page.getByLabel('Monto solicitado')).toHaveValue('20000.00');
  await page.getByLabel('Calle').fill('Av. Vallarta');
  await page.getByLabel('Número exterior').fill('1200');
  await page.getByLabel('Colonia').fill('Americana');
  await page.getByLabel('Municipio o alcaldía').fill('Guadalajara');
  await chooseOption(page, 'Estado', 'Jalisco');
  await page.getByLabel('Código postal').fill('44160');
  await page.getByRole('textbox', { name: 'Teléfono', exact: true }).fill('3312345678');
  await page.getByLabel('Correo electrónico').fill('marta.gomez@correo.mx');
  const references = [
    ['Referencia 1', 'Ana Ramos', 'Hermana', '3311112222'],
    ['Referencia 2', 'Luis Peña', 'Compañero', '3333334444'],
  ] as const;
  for (const [group, name, relationship, phone] of references) {
    const reference = page.getByRole('group', { name: group });
    await reference.getByLabel('Nombre completo').fill(name);
    await reference.getByLabel('Parentesco o relación').fill(relationship);
    await reference.getByLabel('Teléfono de la referencia').fill(phone);
  }
  await page.getByLabel('CLABE').fill(`${CLABE.slice(0, 17)}${(Number(CLABE[17]) + 1) % 10}`);
  await expect(page.getByText(/dígito verificador/)).toBeVisible();
  await page.getByLabel('CLABE').fill(CLABE);
  await expect(page.getByText('Banco: Banamex')).toBeVisible();
  await page.getByLabel('Archivo: INE').setInputFiles({ name: 'ine.png', mimeType: 'image/png', buffer: PNG });
  await page.getByLabel('Archivo: Comprobante de domicilio').setInputFiles({ name: 'luz.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByLabel('Archivo: Recibo de nómina').setInputFiles({ name: 'recibo.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Guardar solicitud' }).click();

  // Capturas opens the new request; the capturer sends it to validation and cannot approve it.
  await expect(page).toHaveURL(/\/origination\/request-list\?id=/);
  const panel = page.getByRole('dialog', { name: 'Detalle de la solicitud' });
  await expect(panel).toContainText('capturada');
  await expect(panel.getByRole('table', { name: 'Documentos de la solicitud' })).toContainText('recibo.pdf');
  await panel.getByRole('button', { name: 'Enviar a validación' }).click();
  await page.getByRole('dialog', { name: 'Enviar solicitud a validación' }).getByRole('button', { name: 'Sí' }).click();
  await expect(panel).toContainText('en validación');
  await expect(panel.getByRole('button', { name: 'Aprobar' })).toHaveCount(0);
  const detailUrl = page.url();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // The second person (Mesa de control) approves; approving does not let them disburse.
  await signOut(page);
  await signIn(page, ACCOUNTS.mesa);
  await expect(page).toHaveURL(/\/home$/);
  await expect(sidebar(page).getByRole('link', { name: 'Capturas' })).toBeVisible();
  await page.goto(detailUrl.replace(/^https?:\/\/[^/]+/, ''));
  // A cold deep link: session restore, the lazy Capturas route and its grid load before the detail, beside the axe sweep.
  await expect(panel).toContainText('en validación');
  await panel.getByRole('button', { name: 'Aprobar' }).click();
  await page.getByRole('dialog', { name: 'Aprobar solicitud' }).getByRole('button', { name: 'Sí' }).click();
  await expect(panel.getByRole('button', { name: 'Cancelar' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Dispersar' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // A third person (Tesorería), neither the capturer nor the approver, disburses (maker-checker).
  await signOut(page);
  await signIn(page, ACCOUNTS.tesoreria);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(detailUrl.replace(/^https?:\/\/[^/]+/, ''));
  const mexicoToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
  const todayBefore = mexicoToday();
  // Only an approved request offers Dispersar ('aprobada' alone would also match the verdict's 'pre-aprobada').
  await panel.getByRole('button', { name: 'Dispersar' }).click();
  const dialog = page.getByRole('dialog', { name: /Dispersar solicitud/ });
  // 20,000.00 less the 2 % fee (400.00) and its 16 % IVA (64.00).
  await expect(dialog.getByLabel('Resumen de la dispersión')).toContainText(money.format(19536));
  // The day it is disbursed on is the one the dialog offers and sends: today in Mexico City as it opened (the clock
  // read before and after it, in case midnight falls between), and the schedule is built on that day, not on a clock
  // read later.
  const dateShown = await dialog.getByRole('group', { name: 'Fecha de dispersión' }).locator('input').inputValue();
  const disbursedOn = dateShown.split('/').reverse().join('-');
  expect([todayBefore, mexicoToday()]).toContain(disbursedOn);
  await dialog.getByRole('button', { name: 'Dispersar' }).click();
  await expect(page.getByText(/dispersada: crédito CR-\d{8}/)).toBeVisible();
  await page.getByRole('link', { name: 'Ver crédito' }).first().click();

  // The credit's schedule on screen is the one packages/lending builds for its terms.
  await expect(page).toHaveURL(/\/wallet\/credits\/credits-view\//);
  // GOB-JAL (demo seed): quincenal, 5 days of payroll cut-off; the first period is charged by days from the disbursement.
  const first = firstPayday({ frequency: 'quincenal', cutOffLeadDays: 5 }, disbursedOn);
  const expected = buildSchedule({
    principal: '20000.00',
    annualRate: '0.36',
    ivaRate: '0.16',
    term: 24,
    frequency: 'quincenal',
    firstDueDate: first.nominal,
    disbursementDate: disbursedOn,
  });
  // The Calendario de pagos tab shows the schedule a page of 13 rows at a time.
  await page.getByRole('tab', { name: 'Calendario de pagos' }).click();
  const table = page.getByRole('table', { name: 'Calendario de pagos', exact: true });
  const cellsOf = () =>
    table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '')));
  await expect(table.locator('tbody tr')).toHaveCount(13);
  const firstPage = await cellsOf();
  await page.getByRole('button', { name: 'Página siguiente' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(11);
  const shown = [...firstPage, ...(await cellsOf())];
  expect(shown.map((cells) => [cells[0], ...cells.slice(2, 7)])).toEqual(
    expected.rows.map((row) => [
      String(row.number),
      ...[row.principal, row.interest, row.iva, row.payment, row.balance].map((value) => money.format(Number(value))),
    ]),
  );
  await page.getByRole('tab', { name: 'Resumen' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Resumen' })).toContainText(money.format(19536));
});
