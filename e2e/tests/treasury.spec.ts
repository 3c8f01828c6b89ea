import { expect, test, type Browser, type Page } from '@playwright/test';
import type { PaymentBatchLine, RefundCandidate } from '@portal/contract';
import { ACCOUNTS, chooseOption, signIn } from './support';
import { api } from './product-routes';

/** Banamex's CLABE of the CLABE literature: the account the demo's transfers leave from. */
const SOURCE = '002010077777777771';
const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });

async function as(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, account);
  await expect(page).toHaveURL(/\/home$/);
  return page;
}

test('a sobrepago is refunded end to end: requested by Cartera, approved and batched by Tesorería, authorized and settled by another person', async ({
  browser,
}) => {
  // Three people sign in and a batch goes through its whole life: more than one screen's budget.
  test.setTimeout(420_000);
  // Cartera asks for the whole saldo a favor of a credit nobody asked for yet (the demo's, seed-treasury.ts).
  const cartera = await as(browser, ACCOUNTS.cartera);
  const candidates = await api<{ items: RefundCandidate[] }>(cartera, '/api/refunds/candidates?pageSize=100');
  const candidate = candidates.items.find((item) => item.available === item.creditBalance && item.committed === '0.00');
  expect(candidate, 'a credit with saldo a favor and no refund asked for').toBeDefined();
  await cartera.goto('/wallet/refunds');
  await expect(cartera.getByRole('heading', { level: 1, name: 'Devoluciones' })).toBeVisible();
  const row = cartera.getByRole('row').filter({ hasText: candidate!.creditFolio });
  await row.getByRole('button', { name: 'Solicitar devolución' }).click();
  const dialog = cartera.getByRole('dialog', { name: 'Solicitar devolución' });
  await expect(dialog.getByLabel('Importe a devolver')).toHaveValue(candidate!.available);
  await dialog.getByRole('button', { name: 'Solicitar' }).click();
  await expect(cartera.getByText('Devolución solicitada: otra persona debe aprobarla.')).toBeVisible();

  // Tesorería approves it (another person) and generates the batch it joins.
  const tesoreria = await as(browser, ACCOUNTS.tesoreria);
  await tesoreria.goto('/wallet/refunds');
  const requests = tesoreria.getByRole('grid', { name: 'Devoluciones' });
  const request = requests.getByRole('row').filter({ hasText: candidate!.creditFolio }).filter({ hasText: 'solicitada' });
  await request.getByRole('button', { name: 'Aprobar' }).click();
  const approve = tesoreria.getByRole('dialog', { name: 'Aprobar devolución' });
  await expect(approve.getByRole('button', { name: 'No' })).toBeFocused();
  await approve.getByRole('button', { name: 'Sí' }).click();
  await expect(tesoreria.getByText('Devolución aprobada: entra en el siguiente lote.')).toBeVisible();

  await tesoreria.goto('/treasury/payment-orders');
  await expect(tesoreria.getByRole('grid', { name: 'Órdenes por enviar' }).getByText(candidate!.creditFolio)).toBeVisible();
  await tesoreria.getByLabel('Cuenta de origen (CLABE)').fill(SOURCE);
  await tesoreria.getByRole('button', { name: 'Generar lote' }).click();
  await tesoreria.getByRole('dialog', { name: 'Generar lote' }).getByRole('button', { name: 'Sí' }).click();
  await expect(tesoreria).toHaveURL(/\/treasury\/payment-orders\/[0-9a-f-]{36}$/);
  const batchUrl = new URL(tesoreria.url()).pathname;
  const batchId = batchUrl.split('/').at(-1)!;
  // Who generated it may not authorize it.
  await tesoreria.getByRole('button', { name: 'Autorizar' }).click();
  await tesoreria.getByRole('dialog', { name: 'Autorizar lote' }).getByRole('button', { name: 'Sí' }).click();
  await expect(tesoreria.getByText(/Quien generó el lote no puede autorizarlo/)).toBeVisible();

  // The administrator authorizes it, downloads the bank file and registers the bank's answer for the refund.
  const admin = await as(browser, ACCOUNTS.admin);
  await admin.goto(batchUrl);
  await admin.getByRole('button', { name: 'Autorizar' }).click();
  await admin.getByRole('dialog', { name: 'Autorizar lote' }).getByRole('button', { name: 'Sí' }).click();
  await expect(admin.getByText('Lote autorizado: descarga el archivo y envíalo al banco.')).toBeVisible();
  const download = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Descargar archivo del banco' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^LT-\d{6}\.txt$/);
  const lines = await api<{ items: PaymentBatchLine[] }>(admin, `/api/payment-batches/${batchId}/lines`);
  const refundLine = lines.items.find((line) => line.kind === 'devolución' && line.creditFolio === candidate!.creditFolio)!;
  expect(refundLine.amount).toBe(candidate!.available);

  await admin.getByRole('button', { name: 'Registrar resultado' }).click();
  const results = admin.getByRole('dialog', { name: 'Registrar resultado' });
  await chooseOption(admin, `Resultado de ${refundLine.trackingKey}`, 'Liquidada');
  await results.getByRole('button', { name: 'Registrar' }).click();
  await expect(admin.getByText(/Resultado registrado: 1 liquidadas, 0 rechazadas\./)).toBeVisible();

  // The refund is paid and the credit's saldo a favor is gone.
  await cartera.goto('/wallet/refunds');
  const paid = cartera.getByRole('grid', { name: 'Devoluciones' }).getByRole('row').filter({ hasText: candidate!.creditFolio });
  await expect(paid.getByText('pagada')).toBeVisible();
  await expect(paid).toContainText(money.format(Number(candidate!.available)));
  // Counted once the candidates' own list has come (rows, or its empty text): before it, no row is there to count.
  const candidatesList = cartera.getByRole('grid', { name: 'Créditos con saldo a favor' });
  await expect(candidatesList.getByRole('row').nth(1).or(candidatesList.getByText('Ningún crédito tiene saldo a favor.'))).toBeVisible();
  await expect(candidatesList.getByText(candidate!.creditFolio)).toHaveCount(0);
});
