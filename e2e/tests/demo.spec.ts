import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, sidebar, signIn } from './support';

/**
 * Smoke test of the template's demo areas (seed section 2): every demo route opens for the administrator with its
 * heading and without a console error; the cart and the scrum board are exercised once. One signed-in page, client-side
 * navigation between routes, to keep it fast.
 */
const ROUTES: [path: string, heading: string][] = [
  ['/dashboard/default', 'Tablero'],
  ['/dashboard/analytics', 'Tablero de analítica'],
  ['/dashboard/alternative', 'Tablero alternativo'],
  ['/dashboard/inventory-management', 'Gestión de inventario'],
  ['/calendar', 'Calendario'],
  ['/charts/echarts', 'Gráficas con ECharts'],
  ['/charts/recharts', 'Gráficas con Recharts'],
  ['/charts/apex-charts', 'Gráficas con ApexCharts'],
  ['/chat', 'Chat'],
  ['/crud-table', 'Tabla CRUD'],
  ['/inbox', 'Bandeja de entrada'],
  ['/map', 'Mapa'],
  ['/matx-list', 'Lista de elementos'],
  ['/others/drag-and-drop', 'Arrastrar y soltar'],
  ['/data-table/simple-mui-table', 'Tabla simple'],
  ['/data-table/expandable-mui-table', 'Tabla expandible'],
  ['/forms/basic', 'Formulario básico'],
  ['/forms/upload', 'Carga de archivos'],
  ['/forms/wizard', 'Asistente por pasos'],
  ['/forms/order-form', 'Formulario de pedido'],
  ['/forms/property-listing-form', 'Alta de inmueble'],
  ['/forms/customer-form', 'Formulario de cliente'],
  ['/forms/invoice-form', 'Formulario de factura'],
  ['/invoice/list', 'Facturas'],
  ['/invoice/1001', 'Detalle de factura'],
  ['/invoice/edit/1001', 'Editar factura'],
  ['/ecommerce/shop', 'Tienda'],
  ['/ecommerce/cart', 'Carrito'],
  ['/ecommerce/checkout', 'Pago'],
  ['/material/table', 'Tabla'],
  ['/material/form', 'Formulario'],
  ['/material/buttons', 'Botones'],
  ['/material/icons', 'Iconos'],
  ['/material/progress', 'Progreso'],
  ['/material/menu', 'Menú'],
  ['/material/checkbox', 'Casillas'],
  ['/material/switch', 'Interruptores'],
  ['/material/radio', 'Botones de opción'],
  ['/material/slider', 'Deslizador'],
  ['/material/autocomplete', 'Autocompletar'],
  ['/material/expansion-panel', 'Paneles expandibles'],
  ['/material/dialog', 'Diálogo'],
  ['/material/snackbar', 'Avisos (snackbar)'],
  ['/others/pricing-1', 'Precios 1'],
  ['/others/pricing-2', 'Precios 2'],
  ['/others/pricing-3', 'Precios 3'],
  ['/others/pricing-4', 'Precios 4'],
  ['/scrum-board', 'Tableros Scrum'],
  ['/scrum-board/b1', 'Tablero Scrum'],
  ['/todo/list', 'Pendientes'],
  ['/todo/list/t1', 'Detalle del pendiente'],
  ['/page-layouts/Left-sidebar-card', 'Tarjeta con barra lateral'],
  ['/page-layouts/user-profile', 'Perfil de usuario'],
  ['/pages/user-list-1', 'Lista de usuarios 1'],
  ['/pages/user-list-2', 'Lista de usuarios 2'],
  ['/pages/user-list-3', 'Lista de usuarios 3'],
  ['/pages/user-list-4', 'Lista de usuarios 4'],
  ['/pages/faq-1', 'Preguntas frecuentes 1'],
  ['/pages/faq-2', 'Preguntas frecuentes 2'],
  ['/pages/customer-list', 'Clientes'],
  ['/pages/new-customer', 'Nuevo cliente'],
  ['/pages/view-customer', 'Ver cliente'],
  ['/pages/product-list', 'Productos'],
  ['/pages/new-product', 'Nuevo producto'],
  ['/pages/view-product', 'Ver producto'],
  ['/pages/order-list', 'Pedidos'],
];

/** Client-side navigation (what a link does), so the signed-in page and its loaded chunks are reused. */
async function go(page: Page, path: string) {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const workerRegistrations = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);

test.describe.configure({ mode: 'serial' });

let page: Page;
const consoleErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  await signIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/home$/);
});

test.afterAll(() => page.close());

test('product pages run without the fake API, and the sidebar shows the Demo group', async () => {
  await expect(sidebar(page).getByRole('link', { name: 'Tableros' })).toBeVisible();
  expect(await workerRegistrations(page)).toBe(0);
});

test('every demo route opens with its heading and no console error', async () => {
  for (const [path, name] of ROUTES) {
    await go(page, path);
    await expect(heading(page, name), path).toBeVisible();
  }
  expect(consoleErrors).toEqual([]);
});

test('the cart adds, counts, updates and deletes through the fake API', async () => {
  await go(page, '/ecommerce/shop');
  await expect(heading(page, 'Tienda')).toBeVisible();
  const add = (title: string) => page.getByRole('button', { name: `Agregar ${title} al carrito` }).click();
  await add('Audífonos inalámbricos');
  await add('Chamarra de mezclilla');
  await add('Audífonos inalámbricos');
  await page.getByRole('link', { name: /Carrito/ }).click();
  await expect(heading(page, 'Carrito')).toBeVisible();
  const cart = page.getByRole('table', { name: 'Artículos del carrito' });
  await expect(page.getByLabel('Cantidad de Audífonos inalámbricos')).toHaveValue('2');
  await expect(page.getByLabel('Cantidad de Chamarra de mezclilla')).toHaveValue('1');
  await page.getByLabel('Cantidad de Chamarra de mezclilla').fill('3');
  await expect(page.getByLabel('Cantidad de Chamarra de mezclilla')).toHaveValue('3');
  await page.getByRole('button', { name: 'Quitar Audífonos inalámbricos' }).click();
  await expect(cart.getByRole('row')).toHaveCount(2);
  // 3 × $624.00 (the second product's price).
  await expect(page.getByLabel('Total del carrito')).toHaveText(/Total: \$1,872\.00/);
  expect(consoleErrors).toEqual([]);
});

test('the scrum board reorders a card and moves it to another list', async () => {
  await go(page, '/scrum-board/b1');
  await expect(heading(page, 'Tablero Scrum')).toBeVisible();
  const list = (name: string) => page.getByRole('region', { name });
  await page.getByRole('button', { name: 'Bajar Definir catálogo' }).click();
  await expect(list('Pendientes').locator('.MuiCard-root').first()).toHaveAccessibleName('Pasarela de pago');
  await page.getByRole('button', { name: 'Mover Definir catálogo a la derecha' }).click();
  await expect(list('En curso').locator('.MuiCard-root')).toHaveCount(2);
  await expect(list('En curso').locator('.MuiCard-root').last()).toHaveAccessibleName('Definir catálogo');
  await expect(list('Pendientes').locator('.MuiCard-root')).toHaveCount(2);
  expect(consoleErrors).toEqual([]);
});

test('a reload on a demo page (which unregisters leftover workers at start-up) starts the fake API again', async () => {
  // The shop's requests are answered before the reload: a request still in flight as the page unloads is no longer an
  // active client's, and the fake API's worker lets it through to the real server (a 404 in the console of a page
  // being left), whatever the reload does after.
  const answered = Promise.all(
    ['get-product-list', 'get-category-list', 'get-cart-list'].map((name) =>
      page.waitForResponse((response) => response.url().includes(`/api/ecommerce/${name}`)),
    ),
  );
  await go(page, '/ecommerce/shop');
  await answered;
  await page.reload();
  await expect(heading(page, 'Tienda')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Agregar Audífonos inalámbricos al carrito' })).toBeVisible();
  // While it runs, every request it does not know goes on to the real server.
  expect(await page.evaluate(async () => (await fetch('/api/health')).status)).toBe(200);
  expect(consoleErrors).toEqual([]);
});

test('leaving the demo for a product page stops the fake API', async () => {
  await go(page, '/home');
  await expect(page.getByRole('heading', { level: 1, name: /Hola/ })).toBeVisible();
  // A request the fake API would answer now reaches the real server, which does not know it. The worker is stopped as
  // the demo's layout is left (an effect's clean-up, then a message to the service worker), which may land after the
  // home's heading is drawn: the request is asked until the stop has landed, and fails if it never does.
  await expect.poll(() => page.evaluate(async () => (await fetch('/api/notification')).status)).toBe(404);
});
