import { expect, test, type Page } from '@playwright/test';
import type { CreditListItem, PaymentOrder, Request, RenewableCredits } from '@portal/contract';
import { ACCOUNTS, SESSION_KEY, signIn, signOut, chooseOption } from './support';

const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
const pesos = (amount: string) => money.format(Number(amount));
const day = (isoDate: string) => isoDate.split('-').reverse().join('/');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!).token.accessToken as string, SESSION_KEY);
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

test('Renovar from a credit view → capture, approval by a second person, disbursement on the fecha flujo by a third → the old credit liquidado por renovación, the net amount in Tesorería', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);

  // A demo credit of GOB-JAL (one product, Nómina Jalisco 24: at least 3 installments paid, no days late) that the
  // renewal rule admits, not renewed by the seed (it renews the lowest numbers).
  const list = await api<{ items: CreditListItem[] }>(page, '/api/credits?status=vigente&sort=-folio&pageSize=100');
  let chosen: { item: CreditListItem; renewable: RenewableCredits; credit: RenewableCredits['credits'][number] } | null = null;
  const seen: string[] = [];
  for (const item of list.items) {
    if (item.daysPastDue !== 0) continue;
    const renewable = await api<RenewableCredits>(page, `/api/requests/renewable-credits?curp=${item.curp}`);
    const credit = renewable.credits.find((entry) => entry.creditId === item.id);
    if (credit) seen.push(`${credit.folio} ${credit.agreement} ${credit.paidInstallments}/${credit.daysPastDue}`);
    if (
      renewable.credits.length === 1 &&
      credit &&
      /GOB-JAL|Jalisco/.test(credit.agreement) &&
      credit.paidInstallments >= 3 &&
      credit.daysPastDue === 0
    ) {
      chosen = { item, renewable, credit };
      break;
    }
  }
  expect(chosen, `a GOB-JAL credit the renewal rule admits, among ${list.items.length}: ${seen.slice(0, 20).join('; ')}`).not.toBeNull();
  const { item, renewable, credit } = chosen!;
  // The client's own request: the renewal captures the same person again.
  const found = await api<{ items: { id: string }[] }>(page, `/api/requests?q=${item.curp}&pageSize=10`);
  const old = await api<Request>(page, `/api/requests/${found.items[0]!.id}`);

  // Renovar from the credit's view opens a request naming it; the CURP brings its payoff at the fecha flujo.
  await page.goto(`/wallet/credits/credits-view/${item.id}`);
  await page.getByRole('link', { name: 'Renovar' }).click();
  await expect(page).toHaveURL(new RegExp(`/origination/request-new\\?renews=${item.id}$`));
  await page.getByLabel('CURP').fill(item.curp);
  await page.getByLabel('Número de empleado').fill(old.employeeNumber);
  await page.getByLabel('Nombre(s)').fill(old.firstNames);
  await page.getByLabel('Primer apellido').fill(old.lastName1);
  if (old.lastName2) await page.getByLabel('Segundo apellido').fill(old.lastName2);
  await chooseOption(page, 'Convenio', /^GOB-JAL/);
  await chooseOption(page, 'Producto', /^Nómina Jalisco 24/);
  await page.getByLabel('Sueldo neto por periodo').fill(old.netSalary);
  await page.getByLabel('Monto solicitado').fill(old.amount);
  await chooseOption(page, 'Plazo', `${old.term} pagos`);
  const renewal = page.getByRole('group', { name: 'Renovación' });
  const box = renewal.getByRole('checkbox', { name: new RegExp(`^Renovar ${credit.folio} `) });
  await expect(box).toBeChecked();
  await expect(renewal).toContainText(`finiquito ${pesos(credit.payoff)}`);
  await expect(renewal).toContainText(`Finiquitos al ${day(renewable.payoffDate)}`);
  // Net = amount − opening fee 2 % and its 16 % IVA (deducted, not financed) − the payoff, each fee rounded half up.
  const cents = (value: string) => Math.round(Number(value) * 100);
  const fee = Math.round(cents(old.amount) * 0.02);
  const net = cents(old.amount) - fee - Math.round(fee * 0.16) - cents(credit.payoff);
  expect(net).toBeGreaterThan(0);
  const netAmount = (net / 100).toFixed(2);
  await expect(renewal.getByLabel('Monto neto de la renovación')).toContainText(`monto neto a recibir ${pesos(netAmount)}`);
  await expect(page.getByLabel('Dictamen en vivo')).toContainText('Pre-aprobada');
  await page.getByLabel('Calle').fill(old.street);
  await page.getByLabel('Número exterior').fill(old.exteriorNumber);
  await page.getByLabel('Colonia').fill(old.neighborhood);
  await page.getByLabel('Municipio o alcaldía').fill(old.municipality);
  await chooseOption(page, 'Estado', old.state);
  await page.getByLabel('Código postal').fill(old.postalCode);
  await page.getByRole('textbox', { name: 'Teléfono', exact: true }).fill(old.phone);
  await page.getByLabel('Correo electrónico').fill(old.email);
  for (const [index, group] of ['Referencia 1', 'Referencia 2'].entries()) {
    const reference = page.getByRole('group', { name: group });
    await reference.getByLabel('Nombre completo').fill(old.references[index]!.name);
    await reference.getByLabel('Parentesco o relación').fill(old.references[index]!.relationship);
    await reference.getByLabel('Teléfono de la referencia').fill(old.references[index]!.phone);
  }
  await page.getByLabel('CLABE').fill(old.clabe);
  await page.getByLabel('Archivo: INE').setInputFiles({ name: 'ine.png', mimeType: 'image/png', buffer: PNG });
  await page.getByLabel('Archivo: Comprobante de domicilio').setInputFiles({ name: 'luz.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByLabel('Archivo: Recibo de nómina').setInputFiles({ name: 'recibo.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Guardar solicitud' }).click();

  await expect(page).toHaveURL(/\/origination\/request-list\?id=/);
  const panel = page.getByRole('dialog', { name: 'Detalle de la solicitud' });
  await expect(panel).toContainText('capturada');
  await expect(panel).toContainText(pesos(netAmount));
  await panel.getByRole('button', { name: 'Enviar a validación' }).click();
  await page.getByRole('dialog', { name: 'Enviar solicitud a validación' }).getByRole('button', { name: 'Sí' }).click();
  await expect(panel).toContainText('en validación');
  const detailPath = new URL(page.url()).pathname + new URL(page.url()).search;
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Mesa de control approves (maker-checker: not who captured).
  await signOut(page);
  await signIn(page, ACCOUNTS.mesa);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(detailPath);
  await expect(panel).toContainText('en validación');
  await panel.getByRole('button', { name: 'Aprobar' }).click();
  await page.getByRole('dialog', { name: 'Aprobar solicitud' }).getByRole('button', { name: 'Sí' }).click();
  await expect(panel.getByRole('button', { name: 'Cancelar' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Tesorería disburses on the fecha flujo (the payoffs' date): what leaves the bank is the net amount.
  await signOut(page);
  await signIn(page, ACCOUNTS.tesoreria);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(detailPath);
  await panel.getByRole('button', { name: 'Dispersar' }).click();
  const dialog = page.getByRole('dialog', { name: /Dispersar solicitud/ });
  const summary = dialog.getByLabel('Resumen de la dispersión');
  await expect(summary).toContainText(`Finiquito ${credit.folio} al ${day(renewable.payoffDate)}`);
  await expect(summary).toContainText(`Monto neto a transferir${pesos(netAmount)}`);
  // The date offered is the fecha flujo, the one day a renewal disburses on (after a day's close, later than today).
  await expect(dialog.getByRole('group', { name: 'Fecha de dispersión' }).locator('input')).toHaveValue(day(renewable.payoffDate));
  await dialog.getByRole('button', { name: 'Dispersar' }).click();
  const notice = page.getByText(/dispersada: crédito CR-\d{8}; renovación, a transferir/);
  await expect(notice).toContainText(`a transferir ${pesos(netAmount)}`);
  const newFolio = /crédito (CR-\d{8})/.exec((await notice.textContent())!)![1]!;

  // The new credit's payment order, for the net amount only, is in Tesorería: waiting to be sent, or already in a batch
  // when Tesorería's own journey, beside this one, generated one since.
  const ordersOf = () => api<{ items: PaymentOrder[] }>(page, `/api/payment-orders?q=${newFolio}`);
  const orders = await ordersOf();
  expect(orders.items.map((order) => [order.kind, order.creditFolio, order.amount])).toEqual([['dispersión', newFolio, netAmount]]);
  // Its status is asked after Tesorería's list has come, not before: a batch generated between the two would otherwise
  // take the order out of a list that then never shows it. An order only leaves "por enviar" (the one batch beside this
  // journey registers no rejection of it), so one still waiting now was waiting when the list was read.
  await page.goto('/treasury/payment-orders');
  const pending = page.getByRole('grid', { name: 'Órdenes por enviar' });
  await expect(pending.getByRole('row').nth(1).or(pending.getByText('No hay órdenes por enviar.'))).toBeVisible();
  if ((await ordersOf()).items[0]!.status === 'por enviar') {
    await expect(pending.getByRole('row').filter({ hasText: newFolio })).toContainText(pesos(netAmount));
  }

  // The old credit: liquidado by the renewal, linked to the new one (and the new one back).
  await page.goto(`/wallet/credits/credits-view/${item.id}`);
  const header = page.getByLabel('Estado del crédito');
  await expect(header).toContainText('Liquidado porRenovación');
  await expect(header).toContainText(`Renovado por${newFolio}`);
  await expect(page.getByRole('link', { name: 'Renovar' })).toHaveCount(0);
  await header.getByRole('link', { name: newFolio }).click();
  await expect(page).toHaveURL(/\/wallet\/credits\/credits-view\/[0-9a-f-]{36}/);
  await expect(page.getByLabel('Estado del crédito').getByRole('link', { name: credit.folio })).toBeVisible();
});
