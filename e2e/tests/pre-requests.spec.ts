import { expect, test } from '@playwright/test';
import { ACCOUNTS, signIn, chooseOption } from './support';

test('a pre-request shows its live verdict, is saved as a draft with the server verdict, and is sent', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/origination/pre-request-new');
  await expect(page.getByRole('heading', { name: 'Pre-Solicitudes', exact: true })).toBeVisible();

  await page.getByLabel('CURP').fill('PXNE660720HMCXTN06');
  await page.getByLabel('Número de empleado').fill('J-1001');
  await page.getByLabel('Nombre(s)').fill('Enrique');
  await page.getByLabel('Primer apellido').fill('Peña');
  await page.getByLabel('Segundo apellido').fill('Nieto');
  await chooseOption(page, 'Convenio', /^GOB-JAL/);
  await chooseOption(page, 'Producto', /^Nómina Jalisco 24/);
  await page.getByLabel('Sueldo neto por periodo').fill('8000');
  await page.getByLabel('Monto solicitado').fill('20000');
  await chooseOption(page, 'Plazo', '24 pagos');

  const verdict = page.getByLabel('Dictamen en vivo');
  await expect(verdict).toContainText('Capacidad de pago: $2,400.00');
  await expect(verdict).toContainText('Pre-aprobada');

  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page).toHaveURL(/\/origination\/pre-request-edit\//);
  await expect(page.getByText(/guardada como borrador/)).toBeVisible();
  await page.getByRole('button', { name: 'Enviar' }).click();
  await page.getByRole('dialog', { name: 'Enviar pre-solicitud' }).getByRole('button', { name: 'Sí' }).click();
  await expect(page.getByText(/enviada\.$/)).toBeVisible();
  await expect(page.getByLabel('Estado: enviada')).toBeVisible();

  await page.goto('/origination/pre-request-new');
  await expect(page.getByRole('grid', { name: 'Mis pre-solicitudes' })).toContainText('Enrique Peña Nieto');
});
