import { expect, test, type Page } from '@playwright/test';
import { groupPermissionPaths } from '@portal/contract';
import { ACCOUNTS, sidebar, signIn } from './support';

interface OutboxPage {
  items: { toEmail: string; link: string | null }[];
}

async function latestLinkFor(admin: Page, email: string): Promise<string> {
  const token = await admin.evaluate(() => JSON.parse(localStorage.getItem('portfolio-admin')!).token.accessToken as string);
  const response = await admin.request.get('/api/outbox', { headers: { authorization: `Bearer ${token}` } });
  expect(response.ok()).toBe(true);
  const link = ((await response.json()) as OutboxPage).items.find((message) => message.toEmail === email)?.link;
  expect(link).toBeTruthy();
  return link!;
}

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByLabel(label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const screensOf = (group: 'wallet' | 'origination') =>
  groupPermissionPaths(group).filter((path) => !path.startsWith('/actions/'));

test('a new Cartera user sets a password from the outbox, sees only Cartera, and sees Originación after a profile change', async ({
  page,
  browser,
}) => {
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

  const link = await latestLinkFor(page, email);
  const user = await browser.newPage();
  await user.goto(link);
  await user.getByLabel('Nueva contraseña', { exact: true }).fill(password);
  await user.getByLabel('Confirma la nueva contraseña').fill(password);
  await user.getByRole('button', { name: /guardar|restablecer/i }).click();
  await signIn(user, { email, password });
  await expect(user).toHaveURL(/\/home$/);
  await expect(sidebar(user).getByRole('link')).toHaveCount(screensOf('wallet').length);

  await page.goto(editUrl);
  await chooseOption(page, 'Perfil', 'Originación');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Cambios guardados')).toBeVisible();

  await user.getByRole('button', { name: 'Menú de usuario' }).click();
  await user.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await user.getByRole('dialog', { name: 'Cerrar sesión' }).getByRole('button', { name: 'Sí' }).click();
  await expect(user).toHaveURL(/\/session\/signin/);
  await signIn(user, { email, password });
  await expect(user).toHaveURL(/\/home$/);
  await expect(sidebar(user).getByRole('link')).toHaveCount(screensOf('origination').length);
  await expect(sidebar(user).getByText('Originacion', { exact: true })).toBeVisible();
  await expect(sidebar(user).getByText('Cartera', { exact: true })).toHaveCount(0);
});
