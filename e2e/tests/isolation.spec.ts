import { expect, test } from '@playwright/test';
import { ACCOUNTS, signIn } from './support';

/**
 * Company isolation as a user of the second company sees it: Crédito Nómina Plus's staff find only their own
 * agreements, requests and colleagues — the database (row-level security) keeps Financiera Demo's rows away.
 */
test('a user of Crédito Nómina Plus sees only its own company in every list', async ({ page }) => {
  await signIn(page, ACCOUNTS.plus);
  await expect(page).toHaveURL(/\/home$/);

  await page.goto('/catalog/contract-list');
  const agreements = page.getByRole('grid');
  await expect(agreements).toContainText('Grupo Industrial ACME');
  await expect(agreements).not.toContainText('Gobierno del Estado de Jalisco');
  await expect(agreements).not.toContainText('Trabajadores federales');

  await page.goto('/origination/request-list');
  const requests = page.getByRole('grid');
  await expect(requests.getByRole('row').nth(1)).toBeVisible();
  await expect(requests).not.toContainText('Gobierno del Estado de Jalisco');
  await expect(requests).not.toContainText('Trabajadores federales');

  await page.goto('/user/user-list');
  const people = page.getByRole('grid');
  await expect(people).toContainText('plus@demo.mx');
  await expect(people).not.toContainText('admin@demo.mx');
});
