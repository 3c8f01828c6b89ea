import { expect, test, type Page } from '@playwright/test';
import type { CreditListItem, LetterQuote } from '@portal/contract';
import { ACCOUNTS, SESSION_KEY, signIn } from './support';

const money = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
const pesos = (amount: string) => money.format(Number(amount));
const day = (isoDate: string) => isoDate.split('-').reverse().join('/');

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!).token.accessToken as string, SESSION_KEY);
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

test('Cartera generates a settlement letter, previews it with the quoted amount, and finds it on the credit view', async ({
  page,
  context,
}) => {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`),
    );
  });
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
  });

  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);

  // A current credit with something to settle at the default validity, and no letter yet.
  const list = await api<{ items: CreditListItem[] }>(page, '/api/credits?status=vigente&sort=-folio&pageSize=20');
  let chosen: { item: CreditListItem; quote: LetterQuote } | null = null;
  for (const item of list.items) {
    const quote = await api<LetterQuote>(page, `/api/credits/${item.id}/settlement-quote`);
    const letters = await api<{ items: unknown[] }>(page, `/api/credits/${item.id}/settlement-letters`);
    if (Number(quote.payoff.totalAmount) > 0 && letters.items.length === 0) {
      chosen = { item, quote };
      break;
    }
  }
  expect(chosen, 'a current credit to quote').not.toBeNull();
  const { item, quote } = chosen!;

  await page.goto('/creditos/settlement-letter');
  await expect(page.getByRole('heading', { level: 1, name: 'Carta de Liquidación Anticipada' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Folio, CURP o nombre' }).fill(item.folio);
  await page.getByRole('button', { name: 'Buscar' }).click();
  // A folio matches one credit: it is chosen at once, nothing to press.
  await expect(page.getByRole('button', { name: `Elegir ${item.folio}` })).toHaveText('Elegido');
  await expect(page.getByRole('button', { name: `Elegir ${item.folio}` })).toBeDisabled();

  const details = page.getByLabel('Liquidación a la vigencia');
  await expect(details).toContainText(`Importe total a liquidar${pesos(quote.payoff.totalAmount)}`);
  await expect(details).toContainText(`Capital insoluto${pesos(quote.payoff.outstandingPrincipal)}`);
  await expect(details).toContainText(`En tránsito− ${pesos(quote.payoff.inTransit)}`);
  await expect(page.getByRole('group', { name: 'Vigencia de la carta' })).toContainText(day(quote.defaultValidUntil));
  await expect(page.getByText('Sin cartas de liquidación emitidas.')).toBeVisible();

  await page.getByRole('button', { name: 'Generar carta' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generar carta' });
  await expect(dialog).toContainText(`${item.folio} por ${pesos(quote.payoff.totalAmount)}`);
  await dialog.getByRole('button', { name: 'Sí' }).click();

  const preview = page.getByTitle('Vista previa de la carta');
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', /^blob:/);
  await expect(page.getByLabel('Importe de la carta')).toHaveText(pesos(quote.payoff.totalAmount));
  const letters = page.getByRole('table', { name: 'Cartas del crédito' });
  await expect(letters.getByRole('row')).toHaveCount(2);
  await expect(letters).toContainText(pesos(quote.payoff.totalAmount));

  // The download is the stored PDF.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar PDF' }).click();
  expect((await download).suggestedFilename()).toMatch(/^carta-liquidacion-CR-\d{8}-1\.pdf$/);

  await page.goto(`/wallet/credits/credits-view/${item.id}?tab=cartas`);
  const onView = page.getByRole('table', { name: 'Cartas de liquidación' });
  await expect(onView.getByRole('row')).toHaveCount(2);
  await expect(onView).toContainText(pesos(quote.payoff.totalAmount));
  await expect(onView).toContainText(day(quote.defaultValidUntil));
  await expect(onView).toContainText('Financiera Demo v1');

  expect(violations).toEqual([]);
});
