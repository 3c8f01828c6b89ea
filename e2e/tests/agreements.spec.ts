import { expect, test } from '@playwright/test';
import { ACCOUNTS, signIn, chooseOption } from './support';

test('an agreement with a quincenal product and a csv layout shows its schedule preview, reads a sample and saves', async ({ page }) => {
  const code = `E2E-${Date.now() % 100000}`;
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/catalog/contract-new');
  await expect(page.getByRole('heading', { name: 'Nuevo Convenio' })).toBeVisible();

  await chooseOption(page, 'Empresa (marca)', 'Financiera Demo');
  await page.getByRole('textbox', { name: 'Clave', exact: true }).fill(code);
  await page.getByLabel('Nombre del convenio').fill('Magisterio de Veracruz');
  await page.getByRole('textbox', { name: 'Patrón', exact: true }).fill('Secretaría de Educación de Veracruz');
  await page.getByLabel('RFC del patrón').fill('SEV850101AB1');
  await chooseOption(page, 'Sector', 'Estatal');
  await chooseOption(page, 'Periodicidad de pago', 'Quincenal');

  const product = page.getByRole('group', { name: 'Producto 1' });
  await product.getByLabel('Nombre del producto').fill('Maestros 24');
  await product.getByLabel('Tasa anual %').fill('36');
  await product.getByLabel('Plazos permitidos (pagos)').fill('24, 48');
  await product.getByLabel('Monto mínimo').fill('3000');
  await product.getByLabel('Monto máximo').fill('120000');

  // The schedule preview: 24 quincenal payments of a 10,000 sample, computed in the browser.
  const preview = page.getByRole('region', { name: 'Simulación y calendario de descuentos' });
  await expect(preview.getByLabel('Resumen de la simulación')).toContainText('CAT:');
  const schedule = preview.getByRole('table', { name: 'Tabla de amortización de ejemplo' });
  await expect(schedule.getByRole('row')).toHaveCount(8);
  await expect(schedule.getByRole('row').last()).toContainText('24');
  await expect(schedule.getByRole('row').last()).toContainText('$0.00');

  const layout = page.getByRole('region', { name: 'Layout del archivo de pagos' });
  await layout.getByLabel('Número de empleado: columna').fill('1');
  await layout.getByLabel('Importe: columna').fill('2');
  await layout.getByLabel('Archivo de muestra').setInputFiles({
    name: 'muestra.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('empleado,importe\n1001,1250.50\n1002,abc\n'),
  });
  const read = layout.getByRole('table', { name: 'Filas leídas con el layout' });
  await expect(read).toContainText('1250.50');
  await expect(read).toContainText('Importe no válido: "abc".');

  await page.getByRole('button', { name: 'Guardar convenio' }).click();
  await expect(page).toHaveURL(/\/catalog\/contract-edit\//);
  await expect(page.getByText('Convenio creado.')).toBeVisible();
  await expect(page.getByRole('heading', { name: new RegExp(code) })).toBeVisible();

  await page.goto(`/catalog/contract-list?q=${code}`);
  await expect(page.getByRole('grid', { name: 'Convenios' })).toContainText('Magisterio de Veracruz');
});
