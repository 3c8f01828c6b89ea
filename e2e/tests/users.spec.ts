import { expect, test } from '@playwright/test';
import { ACCOUNTS, CARTERA_SCREENS, productLinks, screensOf, sidebar, signIn, signOut, chooseOption } from './support';

test('a new Cartera user sets a password from the link Reenviar acceso shows the administrator, sees only Cartera, and sees Originación after a profile change', async ({
  page,
  browser,
}) => {
  // Two browsers, three sign-ins and a password reset: 24 s alone, close to a minute beside the other specs.
  test.setTimeout(240_000);
  const email = `e2e.${Date.now()}@demo.mx`;
  const password = 'PrimeraClave2026';

  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/user/user-new');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Nombre').fill('Usuaria de Prueba E2E');
  await chooseOption(page, 'Perfil', 'Cartera');
  await chooseOption(page, 'Empresa', 'Financiera Demo');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page).toHaveURL(/\/user\/user-edit\//);
  const editUrl = page.url();

  // Reenviar acceso: a fresh link, shown once to the administrator to hand over.
  await page.getByRole('button', { name: 'Reenviar acceso' }).click();
  const linkDialog = page.getByRole('dialog', { name: `Enlace de acceso de ${email}` });
  const linkField = linkDialog.getByLabel('Enlace para crear la contraseña');
  await expect(linkField).toHaveValue(/\/reset-password\?token=/);
  const link = await linkField.inputValue();
  await linkDialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByRole('table', { name: 'Historial del usuario' })).toContainText('Enlace de acceso reenviado');
  const user = await browser.newPage();
  await user.goto(link);
  await user.getByLabel('Nueva contraseña', { exact: true }).fill(password);
  await user.getByLabel('Confirma la nueva contraseña').fill(password);
  await user.getByRole('button', { name: /guardar|restablecer/i }).click();
  // The password is stored once the provider says so: signing in before its answer would leave the form in flight
  // (the next navigation can cut it short) and try a password that may not be set yet.
  await expect(user.getByRole('status')).toContainText('Tu contraseña se actualizó');
  await signIn(user, { email, password });
  await expect(user).toHaveURL(/\/home$/);
  await expect(productLinks(user)).toHaveCount(CARTERA_SCREENS.length);

  await page.goto(editUrl);
  await chooseOption(page, 'Perfil', 'Originación');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Cambios guardados')).toBeVisible();

  await signOut(user);
  await signIn(user, { email, password });
  await expect(user).toHaveURL(/\/home$/);
  await expect(productLinks(user)).toHaveCount(screensOf('origination').length);
  await expect(sidebar(user).getByText('Originacion', { exact: true })).toBeVisible();
  await expect(sidebar(user).getByText('Cartera', { exact: true })).toHaveCount(0);
});
