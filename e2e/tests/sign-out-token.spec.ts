import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, signIn, signInThroughPopup, signOut, storedSession } from './support';

/** Signing out ends the session's tokens at the API too, and every tab asks the next person for the password (issue 44). */

const accessTokenOf = async (page: Page) =>
  (JSON.parse((await storedSession(page)) ?? 'null') as { token: { accessToken: string } }).token.accessToken;

test('after Cerrar sesión, the access token the browser held is refused by the API', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const token = await accessTokenOf(page);
  const before = await page.request.get('/api/credits?pageSize=1', { headers: { authorization: `Bearer ${token}` } });
  expect(before.status()).toBe(200);

  await signOut(page);

  // Someone who copied the token (a shared computer, a leaked log) cannot use it until it expires: every API process
  // sees the ended sign-in within its principal cache's 5 s, not the token's 15 min.
  const tryToken = () => page.request.get('/api/credits?pageSize=1', { headers: { authorization: `Bearer ${token}` } });
  await expect.poll(async () => (await tryToken()).status()).toBe(401);
  const after = await tryToken();
  expect(after.status()).toBe(401);
  expect(((await after.json()) as { title: string }).title).toBe('Sesión terminada');
});

test('a sign-out whose confirmation never reached the provider makes a sign-in in a new tab ask for the password', async ({
  context,
  page,
}) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  // The provider's confirmation is never submitted: it keeps the administrator's session.
  await page.route(/\/oidc\/session\/end/, (route) => route.abort());
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  const cut = page.waitForRequest(/\/oidc\/session\/end/);
  await page.getByRole('dialog', { name: 'Cerrar sesión' }).getByRole('button', { name: 'Sí' }).click();
  await cut;
  await page.close();

  // A new tab (sessionStorage is per tab; the flag must not be) shows the provider's password form.
  const tab = await context.newPage();
  await tab.goto('/session/signin');
  await signInThroughPopup(tab, ACCOUNTS.cartera);
  await expect(tab).toHaveURL(/\/home$/);
  const session = JSON.parse((await storedSession(tab)) ?? 'null') as { user: { email: string } };
  expect(session.user.email).toBe(ACCOUNTS.cartera.email);
});
