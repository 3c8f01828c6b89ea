import { expect, test } from '@playwright/test';
import { ACCOUNTS, signIn } from './support';

interface OutboxPage {
  items: { toEmail: string; link: string | null; subject: string }[];
}

test('forgot password issues a one-time link through the outbox, and the new password signs in', async ({ page, browser }) => {
  const account = ACCOUNTS.originacion;
  await page.goto('/session/forgot-password');
  await page.getByRole('button', { name: 'Restablecer contraseña' }).click();
  await expect(page).toHaveURL(/\/oidc\/forgot-password/);
  await page.getByLabel('Correo electrónico').fill(account.email);
  await page.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByText('Si el correo está registrado, enviamos un enlace para restablecer la contraseña.')).toBeVisible();

  // The administrator reads the outbox (embedded mode has no mail server).
  const admin = await browser.newPage();
  await signIn(admin, ACCOUNTS.admin);
  await expect(admin).toHaveURL(/\/home$/);
  const token = await admin.evaluate(() => JSON.parse(localStorage.getItem('portfolio-admin')!).token.accessToken as string);
  const outbox = (await (await admin.request.get('/api/outbox', { headers: { authorization: `Bearer ${token}` } })).json()) as OutboxPage;
  const link = outbox.items.find((message) => message.toEmail === account.email)?.link;
  expect(link).toMatch(/\/oidc\/reset-password\?token=/);
  await admin.close();

  const newPassword = 'NuevaClave2027';
  await page.goto(link!);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirma la nueva contraseña').fill(newPassword);
  await page.getByRole('button', { name: /guardar|restablecer/i }).click();
  await expect(page.getByRole('status')).toContainText('Tu contraseña se actualizó');

  await signIn(page, { email: account.email, password: newPassword });
  await expect(page).toHaveURL(/\/home$/);

  // The link works once.
  await page.goto(link!);
  await expect(page.getByRole('alert')).toContainText('ya se usó');
});
