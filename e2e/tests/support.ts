import { expect, type Page } from '@playwright/test';
import { groupPermissionPaths } from '@portal/contract';

export const ACCOUNTS = {
  admin: { email: 'admin@demo.mx', password: 'Administrador2026' },
  originacion: { email: 'originacion@demo.mx', password: 'Originacion2026' },
  cartera: { email: 'cartera@demo.mx', password: 'Cartera2026' },
  mesa: { email: 'mesa@demo.mx', password: 'MesaControl2026' },
  tesoreria: { email: 'tesoreria@demo.mx', password: 'Tesoreria2026' },
  sinPermisos: { email: 'sinpermisos@demo.mx', password: 'SinPermisos2026' },
  plus: { email: 'plus@demo.mx', password: 'NominaPlus2026' },
} as const;

export const SESSION_KEY = 'portfolio-admin';

/** Presses "Iniciar sesión" and completes the provider's sign-in page in the popup it opens. */
export async function signInThroughPopup(page: Page, account: { email: string; password: string }): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  const popup = await popupOpened;
  await popup.waitForLoadState('domcontentloaded');
  await popup.getByLabel('Correo electrónico').fill(account.email);
  await popup.getByLabel('Contraseña').fill(account.password);
  // The popup may close the moment it has answered: listen before submitting.
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Iniciar sesión' }).click();
  await closed;
}

export async function signIn(page: Page, account: { email: string; password: string }, path = '/session/signin') {
  await page.goto(path);
  await expect(page).toHaveURL(/\/session\/signin/);
  await signInThroughPopup(page, account);
}

/**
 * Picks `option` in the MUI select labelled `label` (a text names the option exactly). A click that lands while the
 * form renders again (a pre-request's data arriving) can leave the select focused and closed: it is opened again until
 * the option can be taken, within the test's own timeout.
 */
export async function chooseOption(page: Page, label: string, option: string | RegExp) {
  const field = page.getByLabel(label, { exact: true });
  const choice = page.getByRole('option', { name: option, exact: true });
  await expect(async () => {
    if (!(await choice.isVisible())) await field.click();
    await choice.click({ timeout: 1_000 });
  }).toPass();
}

/**
 * Signs out through the user menu and waits for the provider to end its session: the portal shows its sign-in page
 * the moment it forgets the user, before the provider has answered, and a test's next step should start from a
 * provider that no longer holds anyone.
 */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  const ended = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/oidc/session/end/confirm'));
  await page.getByRole('dialog', { name: 'Cerrar sesión' }).getByRole('button', { name: 'Sí' }).click();
  await ended;
  await expect(page).toHaveURL(/\/session\/signin/);
}

export function storedSession(page: Page): Promise<string | null> {
  return page.evaluate((key) => window.localStorage.getItem(key), SESSION_KEY);
}

export function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Menú principal' });
}

/** The screens of a sidebar group (its actions are not links). */
export const screensOf = (group: 'wallet' | 'origination') => groupPermissionPaths(group).filter((path) => !path.startsWith('/actions/'));

/**
 * The screens of the seeded Cartera profile (apps/api/src/seed/seed.ts): the Cartera group, and of Créditos the
 * label updates (collectors tag "Cobranza") and the early-settlement letter.
 */
export const CARTERA_SCREENS = [...screensOf('wallet'), '/creditos/update-labels', '/creditos/settlement-letter'];

/** The product's sidebar links: every group but the template's Demo group (apps/web/src/demo). */
export function productLinks(page: Page) {
  return sidebar(page).getByRole('list').filter({ hasNotText: 'Demo' }).getByRole('link');
}
