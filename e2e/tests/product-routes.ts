import { expect, type Page, type Request } from '@playwright/test';
import type { DETAIL_ROUTE_PERMISSIONS } from '@portal/contract';
import { HOME_PATH, NAV_GROUPS } from '@portal/contract';
import { SESSION_KEY } from './support';

/**
 * The product's routes for the sweeps that visit every screen (weight and accessibility opened cold, the 390 px phone):
 * taken from the contract (sidebar, detail routes with real ids from the demo seed), not copied.
 */

/** Calls the API as the signed-in user of `page`. */
export async function api<T>(page: Page, path: string, body?: unknown): Promise<T> {
  const token = await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!).token.accessToken as string, SESSION_KEY);
  const headers = { authorization: `Bearer ${token}` };
  const response = body === undefined ? await page.request.get(path, { headers }) : await page.request.post(path, { headers, data: body });
  expect(response.ok(), `${path}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

type Items = { items: { id: string }[] };
type Catalog = { agreements: { id: string; products: { id: string; terms: number[] }[] }[] };

/** The administrator's own draft pre-request (the list shows each clerk their own), for its edit route. */
async function ownPreRequest(page: Page): Promise<string> {
  const mine = (await api<Items>(page, '/api/pre-requests?pageSize=10')).items[0];
  if (mine) return mine.id;
  const agreement = (await api<Catalog>(page, '/api/pre-requests/catalog')).agreements[0]!;
  const product = agreement.products[0]!;
  const draft = await api<{ id: string }>(page, '/api/pre-requests', {
    curp: 'PXNE660720HMCXTN06',
    rfc: '',
    firstNames: 'Prueba',
    lastName1: 'Accesible',
    lastName2: '',
    agreementId: agreement.id,
    productId: product.id,
    employeeNumber: 'A-11Y',
    netSalary: '9000',
    otherDeductions: '0',
    amount: '10000',
    term: product.terms[0]!,
  });
  return draft.id;
}

export const first = async (page: Page, path: string) => (await api<Items>(page, path)).items[0]!;
export const disbursedRequest = (page: Page) => first(page, '/api/requests?pageSize=10&status=dispersada');

/** The credit of the first disbursed request (the list's rows do not carry the credit: the request's detail does). */
export const seededCreditId = async (page: Page) =>
  (await api<{ creditId: string }>(page, `/api/requests/${(await disbursedRequest(page)).id}`)).creditId;

/** A real id from the demo seed for every detail route (the type makes a new detail route name one here). */
export const DETAIL_IDS: Record<keyof typeof DETAIL_ROUTE_PERMISSIONS, (page: Page) => Promise<string>> = {
  '/user/user-edit/:id': async (page) => (await first(page, '/api/users?pageSize=10')).id,
  '/origination/pre-request-edit/:id': ownPreRequest,
  '/catalog/contract-edit/:id': async (page) => (await first(page, '/api/agreements?pageSize=10')).id,
  '/wallet/credits/credits-view/:id': seededCreditId,
  '/wallet/files-pay-detail/:id': async (page) => (await first(page, '/api/payment-files?pageSize=10')).id,
  // A cédula of the demo, or the draft Generar makes for the first agreement.
  '/wallet/deduction-orders/:id': async (page) =>
    (await api<Items>(page, '/api/deduction-orders?pageSize=10')).items[0]?.id ??
    (
      await api<{ id: string }>(page, '/api/deduction-orders', {
        agreementId: (await api<{ agreementId: string }[]>(page, '/api/deduction-orders/options'))[0]!.agreementId,
      })
    ).id,
  // The demo's batch (seed-treasury.ts).
  '/treasury/payment-orders/:id': async (page) => (await first(page, '/api/payment-batches?pageSize=10')).id,
  '/admon-wallet/report-edit/:id': async (page) => (await first(page, '/api/report-definitions?pageSize=10')).id,
  // No id: the portal's mail, opened from the user list.
  '/user/mail': async () => '',
};

export interface SweepRoute {
  route: string;
  resolve?: (page: Page) => Promise<string>;
}

/** Every product screen: home, the sidebar's, and every detail route with a real id. */
export const PRODUCT_SCREENS: SweepRoute[] = [
  { route: HOME_PATH },
  ...NAV_GROUPS.flatMap((group) => group.items.map((entry) => ({ route: entry.path }))),
  ...Object.entries(DETAIL_IDS).map(([path, id]) => ({ route: path, resolve: async (page: Page) => path.replace(':id', await id(page)) })),
];

/** Every product screen with its real route: the detail routes' ids asked of the API once, as the user of `page`. */
export async function resolveScreens(page: Page, screens: SweepRoute[] = PRODUCT_SCREENS) {
  const resolved: { template: string; route: string }[] = [];
  for (const { route: template, resolve } of screens) resolved.push({ template, route: resolve ? await resolve(page) : template });
  return resolved;
}

/**
 * Counts the page's requests in flight, for `quiet`: after a navigation inside the app the page's load states have
 * long been reached, so `networkidle` would not wait for the new screen's code and data.
 */
export function trackRequests(page: Page) {
  // The requests themselves, not a count: one that started before tracking began (the sign-in's) and ends after it
  // would otherwise take the count below zero, and the page would never look quiet.
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /** Call as a navigation starts: the quiet that counts begins after it. */
    navigating: () => {
      lastChange = Date.now();
    },
    /** Waits until no request has been in flight for 500 ms (what `networkidle` means), and the loading indicators are gone. */
    quiet: async () => {
      await expect.poll(() => inFlight.size === 0 && Date.now() - lastChange >= 500, { intervals: [100] }).toBe(true);
      await expect(page.getByRole('progressbar')).toHaveCount(0);
    },
  };
}

/**
 * Opens a route the way the app's own links do (a history entry the router reads), so the signed-in app is not
 * loaded again from scratch for each of the sweep's routes; the screen drawn is the same as on a full load.
 */
export async function openInApp(page: Page, route: string) {
  await page.evaluate((path) => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    window.history.pushState({ usr: null, key: `sweep-${index + 1}`, idx: index + 1 }, '', path);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, route);
  const target = new URL(route, 'http://app');
  await expect(page).toHaveURL((url) => url.pathname === target.pathname && url.search === target.search);
}
