import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, signIn, signOut } from './support';

/**
 * The portal under its Content-Security-Policy: every page a user meets (the SPA, the provider's sign-in popup and
 * sign-out page, Swagger UI) loads and works with scripts from its own origin only, and the browser reports no
 * violation on any of them.
 */
test('the portal, the sign-in popup, sign-out and the API docs run under the CSP with no violation', async ({ page, context }) => {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  const watch = (watched: Page) =>
    watched.on('console', (message) => {
      if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(`${watched.url()}: ${message.text()}`);
    });
  watch(page);
  context.on('page', watch);

  const response = await page.goto('/session/signin');
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['x-content-type-options']).toBe('nosniff');

  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/catalog/contract-list');
  await expect(page.getByRole('heading', { name: 'Lista de Convenios' })).toBeVisible();
  await page.goto('/user/user-list');
  await expect(page.getByRole('grid')).toBeVisible();

  // Sign-out goes through the provider's confirmation page, whose auto-submit is a script file.
  await signOut(page);

  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .info')).toBeVisible();

  expect(violations).toEqual([]);
});

test('the source maps of the bundle are not served', async ({ page, request }) => {
  await page.goto('/session/signin');
  const script = await page.locator('script[type="module"][src]').first().getAttribute('src');
  expect(script).toMatch(/^\/assets\/.+\.js$/);
  expect(await (await request.get(script!)).text()).not.toContain('sourceMappingURL');
  expect((await request.get(`${script}.map`)).status()).toBe(404);
});
