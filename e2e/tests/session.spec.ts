import { expect, test } from '@playwright/test';
import { NAV_GROUPS, SCREEN_PATHS } from '@portal/contract';
import {
  ACCOUNTS,
  CARTERA_SCREENS,
  productLinks,
  SESSION_KEY,
  sidebar,
  signIn,
  signInThroughPopup,
  signOut,
  storedSession,
} from './support';

test('the administrator signs in through the popup, sees every sidebar item, and a reload keeps the session', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);

  const nav = sidebar(page);
  await expect(productLinks(page)).toHaveCount(SCREEN_PATHS.length);
  for (const group of NAV_GROUPS) {
    await expect(nav.getByText(group.label, { exact: true })).toBeVisible();
  }
  const session = JSON.parse((await storedSession(page)) ?? 'null') as { user: { email: string; role: string } };
  expect(session.user).toMatchObject({ email: ACCOUNTS.admin.email, role: 'SA' });

  await page.reload();
  await expect(page).toHaveURL(/\/home$/);
  await expect(productLinks(page)).toHaveCount(SCREEN_PATHS.length);
});

test('the Cartera user sees only the Cartera items and gets the 403 page on the user list', async ({ page }) => {
  await signIn(page, ACCOUNTS.cartera);
  await expect(page).toHaveURL(/\/home$/);
  await expect(productLinks(page)).toHaveCount(CARTERA_SCREENS.length);
  await expect(sidebar(page).getByRole('link', { name: 'Actualizar Etiqueta' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'Carta de Liquidación Anticipada' })).toBeVisible();
  await expect(sidebar(page).getByText('Cartera', { exact: true })).toBeVisible();
  await expect(sidebar(page).getByText('Usuarios', { exact: true })).toHaveCount(0);

  await page.goto('/user/user-list');
  await expect(page.getByText('No tienes permiso para ver esta pantalla')).toBeVisible();
  await expect(page).not.toHaveURL(/\/session\/signin/);
});

test('a deep link opened while signed out returns there after signing in', async ({ page }) => {
  // A list state the rows cannot change: a page past the last one (the demo has one page of agreements until other
  // tests add some) is brought back by the grid to the last page once the rows arrive.
  await page.goto('/catalog/contract-list?pageSize=50&sort=-code');
  await expect(page).toHaveURL(/\/session\/signin\?redirect=/);
  await signIn(page, ACCOUNTS.admin, page.url());
  await expect(page.getByRole('heading', { name: 'Lista de Convenios' })).toBeVisible();
  // Checked once the rows are shown, not before they come: the list state as it stays.
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeVisible();
  await expect(page).toHaveURL(/\/catalog\/contract-list\?pageSize=50&sort=-code$/);
  await expect(page.getByRole('combobox', { name: /Filas por página/ })).toHaveText('50');
});

test('an unknown path shows the 404 page and its back button returns to the previous page', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/wallet/credits/credits-list');
  await page.goto('/esta/ruta/no-existe');
  await expect(page).toHaveURL(/\/session\/404$/);
  await expect(page.getByText('Página no encontrada')).toBeVisible();
  await page.getByRole('button', { name: 'Regresar' }).click();
  await expect(page).toHaveURL(/\/wallet\/credits\/credits-list$/);
});

test('a user whose profile grants nothing is told "El usuario no tiene permisos" and stays signed out', async ({ page }) => {
  await signIn(page, ACCOUNTS.sinPermisos);
  await expect(page.getByText('El usuario no tiene permisos')).toBeVisible();
  await expect(page).toHaveURL(/\/session\/signin/);
  expect(await storedSession(page)).toBeNull();
  await page.goto('/home');
  await expect(page).toHaveURL(/\/session\/signin/);
});

test('after a refused user, another person signs in at once: the provider asks for the password and changes account', async ({ page }) => {
  await signIn(page, ACCOUNTS.sinPermisos);
  await expect(page.getByText('El usuario no tiene permisos')).toBeVisible();
  // The provider still holds the refused user's session: this sign-in replaces it (it ends that session on the way).
  await signInThroughPopup(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const session = JSON.parse((await storedSession(page)) ?? 'null') as { user: { email: string } };
  expect(session.user.email).toBe(ACCOUNTS.admin.email);
});

test('logout clears the stored session and ends the provider session', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  expect(await storedSession(page)).not.toBeNull();

  await signOut(page);
  expect(await storedSession(page)).toBeNull();
  expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();

  // The provider session ended too: the next sign-in asks for the password again.
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  const popup = await popupOpened;
  await expect(popup.getByLabel('Contraseña')).toBeVisible();
  await popup.close();
});

test('a logout cut short before the provider ends its session still asks the next person for the password', async ({ page }) => {
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  // The way to the provider's logout is lost (a closed tab, the network): the provider keeps the administrator's session.
  await page.route(/\/oidc\/session\/end/, (route) => route.abort());
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  // Failed, not only sent: the provider must never see this logout.
  const cut = page.waitForEvent('requestfailed', (request) => /\/oidc\/session\/end/.test(request.url()));
  await page.getByRole('dialog', { name: 'Cerrar sesión' }).getByRole('button', { name: 'Sí' }).click();
  await cut;
  await page.unroute(/\/oidc\/session\/end/);

  // The next person opens the portal in a new tab of the same browser (this tab's failed navigation still commits its
  // error page, which interrupted a navigation started here on a busy machine).
  const next = await page.context().newPage();
  await next.goto('/session/signin');
  // The next sign-in shows the provider's form instead of walking into the administrator's account.
  await signInThroughPopup(next, ACCOUNTS.cartera);
  await expect(next).toHaveURL(/\/home$/);
  const session = JSON.parse((await storedSession(next)) ?? 'null') as { user: { email: string } };
  expect(session.user.email).toBe(ACCOUNTS.cartera.email);
});

test('the token renews silently before it expires, and the session stays', async ({ page }) => {
  // The browser's clock is ours to move: the provider's 15-minute token is renewed by the real iframe flow a minute
  // before it ends, without the test waiting 14 minutes.
  await page.clock.install();
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  const token = () =>
    page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.token as { accessToken: string; expiresAt: number } | undefined,
      SESSION_KEY,
    );
  const first = (await token())!;
  const browserNow = await page.evaluate(() => Date.now());
  await page.clock.fastForward(first.expiresAt * 1000 - browserNow - 50_000);
  await expect.poll(async () => (await token())?.accessToken, { intervals: [1_000] }).not.toBe(first.accessToken);
  expect((await token())!.expiresAt).toBeGreaterThan(first.expiresAt);
  await expect(page).toHaveURL(/\/home$/);
  await expect(productLinks(page)).toHaveCount(SCREEN_PATHS.length);
});
