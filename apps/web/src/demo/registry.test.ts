import { describe, expect, it, vi } from 'vitest';
import { DEMO_AREAS, DEMO_NAV_GROUP, patchDemoRoutes } from './registry';

/** Seed section 2, "Template demo routes", spelled out once more as the specification lists them. */
const SPEC_ROUTES = [
  ...['default', 'analytics', 'alternative', 'inventory-management'].map((name) => `/dashboard/${name}`),
  '/calendar',
  '/charts/echarts',
  '/charts/recharts',
  '/charts/apex-charts',
  '/chat',
  '/crud-table',
  '/inbox',
  '/map',
  '/matx-list',
  '/others/drag-and-drop',
  '/data-table/simple-mui-table',
  '/data-table/expandable-mui-table',
  ...['basic', 'upload', 'wizard', 'order-form', 'property-listing-form', 'customer-form', 'invoice-form'].map((name) => `/forms/${name}`),
  '/invoice/list',
  '/invoice/:id',
  '/invoice/edit/:id',
  ...['shop', 'cart', 'checkout'].map((name) => `/ecommerce/${name}`),
  ...[
    'table',
    'form',
    'buttons',
    'icons',
    'progress',
    'menu',
    'checkbox',
    'switch',
    'radio',
    'slider',
    'autocomplete',
    'expansion-panel',
    'dialog',
    'snackbar',
  ].map((name) => `/material/${name}`),
  ...[1, 2, 3, 4].map((n) => `/others/pricing-${n}`),
  '/scrum-board',
  '/scrum-board/:id',
  '/todo/list',
  '/todo/list/:id',
  '/page-layouts/Left-sidebar-card',
  '/page-layouts/user-profile',
  ...[1, 2, 3, 4].map((n) => `/pages/user-list-${n}`),
  ...['faq-1', 'faq-2', 'customer-list', 'new-customer', 'view-customer', 'product-list', 'new-product', 'view-product', 'order-list'].map(
    (name) => `/pages/${name}`,
  ),
];

const routes = DEMO_AREAS.flatMap((area) => area.routes);

describe('demo registry', () => {
  it('has exactly the demo routes of the specification, once each, each with a title', () => {
    expect(routes.map((route) => route.path).sort()).toEqual([...SPEC_ROUTES].sort());
    expect(routes.every((route) => route.title.length > 0)).toBe(true);
  });

  it('restricts dashboard/default to role SA and leaves the others open to any signed-in user', () => {
    expect(routes.filter((route) => route.access)).toEqual([
      expect.objectContaining({ path: '/dashboard/default', access: { roles: ['SA'] } }),
    ]);
  });

  it('gives the sidebar one "Demo" group with one entry per area, never a detail route', () => {
    expect(DEMO_NAV_GROUP.label).toBe('Demo');
    expect(DEMO_NAV_GROUP.items).toHaveLength(DEMO_AREAS.length);
    expect(DEMO_NAV_GROUP.items.every((item) => !item.path.includes(':') && !item.requiresPermission)).toBe(true);
  });

  it('adds its routes under the shell only when no product route matched', () => {
    const patch = vi.fn();
    const match = (path?: string) => ({ route: { path } }) as never;
    patchDemoRoutes({ matches: [match(), match('/user/user-edit/:id')], patch });
    expect(patch).not.toHaveBeenCalled();
    patchDemoRoutes({ matches: [match(), match('*')], patch });
    expect(patch).toHaveBeenCalledWith('shell', [expect.objectContaining({ id: 'demo', children: expect.any(Array) })]);
    expect((patch.mock.calls[0]![1] as { children: unknown[] }[])[0]!.children).toHaveLength(routes.length);
  });
});
