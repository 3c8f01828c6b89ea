import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { SESSION_KEY, productLinks, storedSession } from './support';
import { startExternalProvider, type ExternalProvider } from './external-provider';

/**
 * The portal signed in by an identity provider that is not its own code (OIDC_ISSUER / OIDC_CLIENT_ID /
 * OIDC_AUDIENCE): a provider of the test's own (external-provider.ts: oidc-provider with its accounts, keys and page),
 * and a portal of this file's own, started with that configuration on its own port and data folder, as a company
 * deploys it: no demo data, its first administrator the e-mail the provider's tokens carry (BOOTSTRAP_ADMIN_EMAIL).
 */
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const PROVIDER_PORT = BASE_PORT + 5;
const PORTAL_PORT = BASE_PORT + 6;
const PORTAL = `http://127.0.0.1:${PORTAL_PORT}`;
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DATA_DIR = 'e2e/.data-e2e-external';
const CLIENT_ID = 'portal-nomina';
const AUDIENCE = 'api://portal-nomina';

const ACCOUNTS = {
  'ana.directora': {
    password: 'Clave-del-proveedor-2026',
    email: 'ana.directora@empresa.test',
    name: 'Ana Directora',
    emailInAccessToken: true,
  },
  // Set up at the provider without the e-mail in the API's access token (its ID token still names her).
  'sin.correo': {
    password: 'Clave-del-proveedor-2026',
    email: 'ana.directora@empresa.test',
    name: 'Sin Correo',
    emailInAccessToken: false,
  },
};

let provider: ExternalProvider;
let portal: ChildProcess;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  provider = await startExternalProvider({
    port: PROVIDER_PORT,
    portalUrl: PORTAL,
    clientId: CLIENT_ID,
    audience: AUDIENCE,
    accounts: ACCOUNTS,
    accessTokenTtl: 300,
  });
  await rm(`${REPO}${DATA_DIR}`, { recursive: true, force: true });
  portal = spawn(`${REPO}node_modules/.bin/tsx`, ['apps/api/src/main.ts'], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH,
      PORT: String(PORTAL_PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: PORTAL,
      DATA_DIR,
      LOG_LEVEL: 'warn',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_AUDIENCE: AUDIENCE,
      SEED_DEMO: 'false',
      BOOTSTRAP_ADMIN_EMAIL: ACCOUNTS['ana.directora'].email,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Portal listo en')) resolve();
    };
    portal.stdout!.on('data', read);
    portal.stderr!.on('data', read);
    portal.once('exit', (code) => reject(new Error(`the portal exited (${code}) before it was ready:\n${output}`)));
  });
});

test.afterAll(async () => {
  if (portal && portal.exitCode === null) {
    const exited = new Promise((resolve) => portal.once('exit', resolve));
    portal.kill('SIGTERM');
    await exited;
  }
  await provider?.close();
  await rm(`${REPO}${DATA_DIR}`, { recursive: true, force: true });
});

/** Presses "Iniciar sesión" and signs in on the provider's own page in the popup. */
async function signInAtProvider(page: Page, username: keyof typeof ACCOUNTS) {
  await page.goto(`${PORTAL}/session/signin`);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Usuario').fill(username);
  await popup.getByLabel('Clave').fill(ACCOUNTS[username].password);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Entrar' }).click();
  await closed;
}

const storedToken = (page: Page) =>
  page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? 'null')?.token as { accessToken: string; expiresAt: number } | undefined,
    SESSION_KEY,
  );

const header = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string };
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** What the portal's API answers this page for a token (the users list: the bootstrap administrator may read it). */
const apiStatus = (page: Page, token: string) =>
  page.evaluate(async (bearer) => (await fetch('/api/users?pageSize=1', { headers: { authorization: `Bearer ${bearer}` } })).status, token);

test('signs in at the external provider, renews the token silently across a key rotation, and signs out there', async ({ page }) => {
  // The browser's clock is the test's to move: the renewal a minute before expiry happens without waiting minutes.
  await page.clock.install();
  await signInAtProvider(page, 'ana.directora');
  await expect(page).toHaveURL(/\/home$/);
  const session = JSON.parse((await storedSession(page)) ?? 'null') as { user: { email: string; role: string } };
  expect(session.user).toMatchObject({ email: 'ana.directora@empresa.test', role: 'SA' });
  await expect(productLinks(page).first()).toBeVisible();

  const first = (await storedToken(page))!;
  const [firstKey] = provider.keyIds();
  expect(header(first.accessToken).kid).toBe(firstKey);
  expect(claims(first.accessToken)).toMatchObject({ iss: provider.issuer, aud: AUDIENCE, email: 'ana.directora@empresa.test' });

  // The provider rotates its signing key (the old one stays published), the portal keeps running.
  const newKey = await provider.rotateKeys();
  const browserNow = await page.evaluate(() => Date.now());
  await page.clock.fastForward(first.expiresAt * 1000 - browserNow - 50_000);
  await expect.poll(async () => (await storedToken(page))?.accessToken).not.toBe(first.accessToken);
  const renewed = (await storedToken(page))!;
  expect(header(renewed.accessToken).kid).toBe(newKey);
  expect(renewed.expiresAt).toBeGreaterThan(first.expiresAt);

  // The portal takes the token signed with the new key (it fetches the provider's keys again when it meets an unknown
  // one, at most once in its cool-down), and the earlier token while its key is still published.
  await expect.poll(() => apiStatus(page, renewed.accessToken)).toBe(200);
  expect(await apiStatus(page, first.accessToken)).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/home$/);
  await expect(productLinks(page).first()).toBeVisible();

  // Sign-out ends the provider's session too: its own confirmation, then back to the portal's sign-in page.
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  await page.getByRole('dialog', { name: 'Cerrar sesión' }).getByRole('button', { name: 'Sí' }).click();
  await page.getByRole('button', { name: 'Sí, cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/session\/signin/);
  expect(await storedSession(page)).toBeNull();
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  const popup = await popupOpened;
  await expect(popup.getByLabel('Clave')).toBeVisible();
  await popup.close();
});

test('a token without the e-mail claim is refused with a Spanish reason, and nobody is signed in', async ({ page }) => {
  await signInAtProvider(page, 'sin.correo');
  await expect(page.getByText('El proveedor de identidad no envió tu correo electrónico')).toBeVisible();
  await expect(page).toHaveURL(/\/session\/signin/);
  expect(await storedSession(page)).toBeNull();
});
