import type { ComponentType } from 'react';
import { DETAIL_ROUTE_PERMISSIONS, HOME_PATH, NAV_GROUPS } from '@portal/contract';

/** Who may open a route (seed section 6): a permission path, a role list, or any signed-in user. */
export interface RouteAccess {
  permission?: string;
  roles?: readonly string[];
}

export interface ScreenRoute {
  path: string;
  title: string;
  /** The sidebar group's label, for the breadcrumb. */
  group?: string;
  access?: RouteAccess;
  load: () => Promise<{ default: ComponentType }>;
}

/** What a route's `handle` carries, read by the shell (breadcrumb, access gate, document title). */
export interface ScreenHandle {
  title: string;
  group?: string;
  access?: RouteAccess;
}

const placeholder = () => import('./shell/placeholder.screen');

/** Screens built so far; every other product route shows the placeholder until its issue lands. */
const SCREENS: Partial<Record<string, () => Promise<{ default: ComponentType }>>> = {
  '/user/user-list': () => import('../features/users/user-list.screen'),
  '/user/user-new': () => import('../features/users/user-new.screen'),
  '/user/profile-list': () => import('../features/users/profile-list.screen'),
  '/user/user-edit/:id': () => import('../features/users/user-edit.screen'),
  '/user/mail': () => import('../features/users/mail-list.screen'),
  '/catalog/contract-list': () => import('../features/agreements/agreement-list.screen'),
  '/origination/pre-request-new': () => import('../features/origination/pre-request-new.screen'),
  '/origination/pre-request-edit/:id': () => import('../features/origination/pre-request-edit.screen'),
  '/origination/request-new': () => import('../features/origination/request-new.screen'),
  '/origination/request-list': () => import('../features/origination/request-list.screen'),
  '/wallet/credits/credits-view/:id': () => import('../features/wallet/credit-view.screen'),
  '/wallet/credits/credits-list': () => import('../features/wallet/credit-list.screen'),
  '/wallet/admin-flow-date': () => import('../features/wallet/business-date.screen'),
  '/wallet/upload-file-pay': () => import('../features/wallet/payment-file-upload.screen'),
  '/wallet/files-pay-list': () => import('../features/wallet/payment-file-list.screen'),
  '/wallet/files-pay-detail/:id': () => import('../features/wallet/payment-file-detail.screen'),
  '/wallet/application-pay-list': () => import('../features/wallet/payment-report.screen'),
  '/wallet/deduction-orders': () => import('../features/deduction-orders/deduction-order-list.screen'),
  '/wallet/deduction-orders/:id': () => import('../features/deduction-orders/deduction-order-detail.screen'),
  '/wallet/refunds': () => import('../features/treasury/refunds.screen'),
  '/treasury/payment-orders': () => import('../features/treasury/payment-orders.screen'),
  '/treasury/payment-orders/:id': () => import('../features/treasury/payment-batch.screen'),
  '/wallet/employer-statement': () => import('../features/employer-statement/employer-statement.screen'),
  '/creditos/update-labels': () => import('../features/credit-tools/update-labels.screen'),
  '/creditos/settlement-letter': () => import('../features/credit-tools/settlement-letter.screen'),
  '/catalog/contract-new': () => import('../features/agreements/agreement-new.screen'),
  '/catalog/contract-edit/:id': () => import('../features/agreements/agreement-edit.screen'),
  '/wallet/operative-report': () => import('../features/wallet/operative-report.screen'),
  '/admon-wallet/reports-list': () => import('../features/portfolio-reports/reports-list.screen'),
  '/admon-wallet/reports-new': () => import('../features/portfolio-reports/reports-new.screen'),
  '/admon-wallet/report-edit/:id': () => import('../features/portfolio-reports/report-edit.screen'),
};

const DETAIL_TITLES: Record<keyof typeof DETAIL_ROUTE_PERMISSIONS, string> = {
  '/user/user-edit/:id': 'Editar usuario',
  '/origination/pre-request-edit/:id': 'Editar pre-solicitud',
  '/catalog/contract-edit/:id': 'Editar convenio',
  '/wallet/credits/credits-view/:id': 'Detalle del crédito',
  '/wallet/files-pay-detail/:id': 'Detalle del archivo de pagos',
  '/wallet/deduction-orders/:id': 'Cédula de descuentos',
  '/treasury/payment-orders/:id': 'Lote de órdenes de pago',
  '/admon-wallet/report-edit/:id': 'Editar reporte operativo',
  '/user/mail': 'Correos del portal',
};

const groupOf = (path: string) => NAV_GROUPS.find((group) => group.items.some((entry) => entry.path === path))?.label;

/** Every product route of the seed. Screens not built yet load the titled placeholder; each issue replaces one. */
export const SCREEN_ROUTES: ScreenRoute[] = [
  { path: HOME_PATH, title: 'Inicio', load: () => import('../features/home/home.screen') },
  ...NAV_GROUPS.flatMap((group) =>
    group.items.map((entry): ScreenRoute => ({
      path: entry.path,
      title: entry.label,
      group: group.label,
      ...(entry.requiresPermission ? { access: { permission: entry.path } } : {}),
      load: SCREENS[entry.path] ?? placeholder,
    })),
  ),
  ...Object.entries(DETAIL_ROUTE_PERMISSIONS).map(([path, listPath]): ScreenRoute => ({
    path,
    title: DETAIL_TITLES[path as keyof typeof DETAIL_TITLES],
    group: groupOf(listPath),
    access: { permission: listPath },
    load: SCREENS[path] ?? placeholder,
  })),
];

export function canAccess(session: { user: { role: string }; permissions: { path: string }[] } | null, access?: RouteAccess): boolean {
  if (!session) return false;
  if (!access) return true;
  if (access.roles && !access.roles.includes(session.user.role)) return false;
  if (access.permission && !session.permissions.some((permission) => permission.path === access.permission)) return false;
  return true;
}
