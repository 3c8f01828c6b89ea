import type { ComponentType } from 'react';
import type { PatchRoutesOnNavigationFunctionArgs } from 'react-router';

/**
 * The demo's one registration point (seed section 2, "Template demo routes"): the router patches these routes in on
 * the first visit to a path it does not know, and the shell adds the "Demo" sidebar group. Nothing else of the
 * product imports from demo/ (lint enforces it), and a build with VITE_DEMO=false leaves all of it out.
 */

type Screen = () => Promise<{ default: ComponentType }>;

export interface DemoRoute {
  path: string;
  title: string;
  access?: { roles: readonly string[] };
  load: Screen;
}

export interface DemoArea {
  key: string;
  label: string;
  routes: DemoRoute[];
}

const route = (path: string, title: string, load: Screen, access?: DemoRoute['access']): DemoRoute => ({
  path,
  title,
  load,
  ...(access ? { access } : {}),
});

/** Routes whose screens come from one module picked by a key: `pick(import(...), 'key')`. */
const pick =
  <K extends PropertyKey>(load: () => Promise<{ screens: Record<K, ComponentType> }>, key: K): Screen =>
  () =>
    load().then((module) => ({ default: module.screens[key] }));

const dashboards = () => import('./dashboards/dashboards.screen');
const tables = () => import('./tables/tables.screen');
const forms = () => import('./forms/forms.screen');
const invoices = () => import('./invoices/invoices.screen');
const ecommerce = () => import('./ecommerce/ecommerce.screen');
const material = () => import('./material/material.screen');
const pricing = () => import('./pages/pricing.screen');
const scrum = () => import('./scrum-board/scrum-board.screen');
const apps = () => import('./apps/apps.screen');
const todo = () => import('./apps/todo.screen');
const layouts = () => import('./pages/page-layouts.screen');
const people = () => import('./pages/user-lists.screen');
const faq = () => import('./pages/faq.screen');
const records = () => import('./pages/records.screen');

const MATERIAL = {
  table: 'Tabla',
  form: 'Formulario',
  buttons: 'Botones',
  icons: 'Iconos',
  progress: 'Progreso',
  menu: 'Menú',
  checkbox: 'Casillas',
  switch: 'Interruptores',
  radio: 'Botones de opción',
  slider: 'Deslizador',
  autocomplete: 'Autocompletar',
  'expansion-panel': 'Paneles expandibles',
  dialog: 'Diálogo',
  snackbar: 'Avisos (snackbar)',
} as const;

export const DEMO_AREAS: DemoArea[] = [
  {
    key: 'dashboards',
    label: 'Tableros',
    routes: [
      route('/dashboard/analytics', 'Tablero de analítica', pick(dashboards, 'analytics')),
      route('/dashboard/default', 'Tablero', pick(dashboards, 'default'), { roles: ['SA'] }),
      route('/dashboard/alternative', 'Tablero alternativo', pick(dashboards, 'alternative')),
      route('/dashboard/inventory-management', 'Gestión de inventario', pick(dashboards, 'inventory')),
    ],
  },
  {
    key: 'apps',
    label: 'Aplicaciones',
    routes: [
      route('/calendar', 'Calendario', pick(apps, 'calendar')),
      route('/chat', 'Chat', pick(apps, 'chat')),
      route('/inbox', 'Bandeja de entrada', pick(apps, 'inbox')),
      route('/map', 'Mapa', pick(apps, 'map')),
      route('/matx-list', 'Lista de elementos', pick(apps, 'list')),
      route('/others/drag-and-drop', 'Arrastrar y soltar', pick(apps, 'dragAndDrop')),
    ],
  },
  {
    key: 'charts',
    label: 'Gráficas',
    routes: [
      route('/charts/echarts', 'Gráficas con ECharts', () => import('./charts/echarts.screen')),
      route('/charts/recharts', 'Gráficas con Recharts', () => import('./charts/recharts.screen')),
      route('/charts/apex-charts', 'Gráficas con ApexCharts', () => import('./charts/apex-charts.screen')),
    ],
  },
  {
    key: 'tables',
    label: 'Tablas',
    routes: [
      route('/crud-table', 'Tabla CRUD', pick(tables, 'crud')),
      route('/data-table/simple-mui-table', 'Tabla simple', pick(tables, 'simple')),
      route('/data-table/expandable-mui-table', 'Tabla expandible', pick(tables, 'expandable')),
    ],
  },
  {
    key: 'forms',
    label: 'Formularios',
    routes: [
      route('/forms/basic', 'Formulario básico', pick(forms, 'basic')),
      route('/forms/upload', 'Carga de archivos', pick(forms, 'upload')),
      route('/forms/wizard', 'Asistente por pasos', pick(forms, 'wizard')),
      route('/forms/order-form', 'Formulario de pedido', pick(forms, 'order')),
      route('/forms/property-listing-form', 'Alta de inmueble', pick(forms, 'property')),
      route('/forms/customer-form', 'Formulario de cliente', pick(forms, 'customer')),
      route('/forms/invoice-form', 'Formulario de factura', pick(forms, 'invoice')),
    ],
  },
  {
    key: 'invoices',
    label: 'Facturas',
    routes: [
      route('/invoice/list', 'Facturas', pick(invoices, 'list')),
      route('/invoice/:id', 'Detalle de factura', pick(invoices, 'view')),
      route('/invoice/edit/:id', 'Editar factura', pick(invoices, 'edit')),
    ],
  },
  {
    key: 'ecommerce',
    label: 'Tienda',
    routes: [
      route('/ecommerce/shop', 'Tienda', pick(ecommerce, 'shop')),
      route('/ecommerce/cart', 'Carrito', pick(ecommerce, 'cart')),
      route('/ecommerce/checkout', 'Pago', pick(ecommerce, 'checkout')),
    ],
  },
  {
    key: 'material',
    label: 'Componentes Material',
    routes: Object.entries(MATERIAL).map(([key, title]) => route(`/material/${key}`, title, pick(material, key as keyof typeof MATERIAL))),
  },
  {
    key: 'scrum-board',
    label: 'Tablero Scrum',
    routes: [
      route('/scrum-board', 'Tableros Scrum', pick(scrum, 'boards')),
      route('/scrum-board/:id', 'Tablero Scrum', pick(scrum, 'board')),
    ],
  },
  {
    key: 'todo',
    label: 'Pendientes',
    routes: [route('/todo/list', 'Pendientes', pick(todo, 'list')), route('/todo/list/:id', 'Detalle del pendiente', pick(todo, 'detail'))],
  },
  {
    key: 'pricing',
    label: 'Precios',
    routes: ([1, 2, 3, 4] as const).map((variant) => route(`/others/pricing-${variant}`, `Precios ${variant}`, pick(pricing, variant))),
  },
  {
    key: 'page-layouts',
    label: 'Diseños de página',
    routes: [
      route('/page-layouts/Left-sidebar-card', 'Tarjeta con barra lateral', pick(layouts, 'leftSidebarCard')),
      route('/page-layouts/user-profile', 'Perfil de usuario', pick(layouts, 'userProfile')),
    ],
  },
  {
    key: 'pages',
    label: 'Páginas',
    routes: [
      ...([1, 2, 3, 4] as const).map((variant) =>
        route(`/pages/user-list-${variant}`, `Lista de usuarios ${variant}`, pick(people, variant)),
      ),
      ...([1, 2] as const).map((variant) => route(`/pages/faq-${variant}`, `Preguntas frecuentes ${variant}`, pick(faq, variant))),
      route('/pages/customer-list', 'Clientes', pick(records, 'customerList')),
      route('/pages/new-customer', 'Nuevo cliente', pick(records, 'newCustomer')),
      route('/pages/view-customer', 'Ver cliente', pick(records, 'viewCustomer')),
      route('/pages/product-list', 'Productos', pick(records, 'productList')),
      route('/pages/new-product', 'Nuevo producto', pick(records, 'newProduct')),
      route('/pages/view-product', 'Ver producto', pick(records, 'viewProduct')),
      route('/pages/order-list', 'Pedidos', pick(records, 'orderList')),
    ],
  },
];

/** Path parameters (`:id`) mark detail screens, reached from their list rather than from a menu. */
export const isMenuRoute = (candidate: DemoRoute) => !candidate.path.includes(':');

/** The sidebar's "Demo" group: one entry per area, opening its first screen (the area's tabs lead to the rest). */
export const DEMO_NAV_GROUP = {
  key: 'demo',
  label: 'Demo',
  items: DEMO_AREAS.map((area) => ({ path: area.routes.find(isMenuRoute)!.path, label: area.label, requiresPermission: false })),
};

/**
 * Adds the demo routes under the shell's layout (route id `shell`) when a path matched no product route. They sit
 * in one pathless layout whose screen starts the fake API while a demo screen is open.
 */
export function patchDemoRoutes({ matches, patch }: Pick<PatchRoutesOnNavigationFunctionArgs, 'matches' | 'patch'>): void {
  const deepest = matches.at(-1)?.route.path;
  if (deepest && deepest !== '/' && deepest !== '*') return; // a product route matched: nothing to add
  patch('shell', [
    {
      id: 'demo',
      lazy: () => import('./demo-layout').then((module) => ({ Component: module.DemoLayout })),
      children: DEMO_AREAS.flatMap((area) =>
        area.routes.map((demo) => ({
          path: demo.path,
          // The area's tabs travel with the route, so the layout needs nothing from this file (no import loop).
          handle: {
            title: demo.title,
            group: area.label,
            access: demo.access,
            demoTabs: area.routes.filter(isMenuRoute).map(({ path, title }) => ({ path, title })),
          },
          lazy: () => demo.load().then((module) => ({ Component: module.default })),
        })),
      ),
    },
  ]);
}
