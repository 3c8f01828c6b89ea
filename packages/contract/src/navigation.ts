/**
 * The product's sidebar (seed section 2) and the action permissions (docs/domain.md, "Origination").
 * This is the one source for the web sidebar and routes, the seeded profiles and the API's permission checks:
 * a permission is a screen path, and an action that changes money or status is a permission path too.
 */

export interface NavItem {
  path: string;
  label: string;
  /** Flagged items show and open only when the user's permission list holds their path. */
  requiresPermission: boolean;
}

export interface NavGroup {
  key: string;
  label: string;
  items: NavItem[];
}

/** Keeps the path's literal type, so ScreenPath (and PermissionPath) is a union of the catalogue's paths, not any string. */
const item = <const Path extends string>(path: Path, label: string) => ({ path, label, requiresPermission: true }) satisfies NavItem;

export const NAV_GROUPS = [
  {
    key: 'users',
    label: 'Usuarios',
    items: [item('/user/user-list', 'Lista de usuarios'), item('/user/user-new', 'Nuevo Usuario'), item('/user/profile-list', 'Perfiles')],
  },
  {
    key: 'origination',
    label: 'Originacion',
    items: [
      item('/origination/request-new', 'Solicitudes'),
      item('/origination/pre-request-new', 'Pre-Solicitudes'),
      item('/origination/request-list', 'Capturas'),
    ],
  },
  {
    key: 'wallet',
    label: 'Cartera',
    items: [
      item('/wallet/credits/credits-list', 'Créditos'),
      item('/wallet/upload-file-pay', 'Carga archivos de pagos'),
      item('/wallet/files-pay-list', 'Listado de archivos de pagos'),
      item('/wallet/application-pay-list', 'Reporte de pagos'),
      item('/wallet/deduction-orders', 'Cédulas de descuento'),
      item('/wallet/refunds', 'Devoluciones'),
      item('/wallet/employer-statement', 'Estado de cuenta por convenio'),
      item('/wallet/operative-report', 'Reportes Operativos'),
      item('/wallet/admin-flow-date', 'Admin Fecha Flujo'),
    ],
  },
  {
    key: 'treasury',
    label: 'Tesorería',
    items: [item('/treasury/payment-orders', 'Órdenes de pago')],
  },
  {
    key: 'credit-tools',
    label: 'Creditos',
    items: [item('/creditos/update-labels', 'Actualizar Etiqueta'), item('/creditos/settlement-letter', 'Carta de Liquidación Anticipada')],
  },
  {
    key: 'agreements',
    label: 'Convenios',
    items: [item('/catalog/contract-list', 'Lista de Convenios'), item('/catalog/contract-new', 'Nuevo Convenio')],
  },
  {
    key: 'portfolio-reports',
    label: 'Admon Cartera',
    items: [item('/admon-wallet/reports-list', 'Lista Reportes Operativos'), item('/admon-wallet/reports-new', 'Nuevo Reporte Operativo')],
  },
] as const satisfies readonly NavGroup[];

export type NavGroupKey = (typeof NAV_GROUPS)[number]['key'];
export type ScreenPath = (typeof NAV_GROUPS)[number]['items'][number]['path'];

export const SCREEN_PATHS: ScreenPath[] = NAV_GROUPS.flatMap((group) => group.items.map((entry) => entry.path));

/** Actions that change money or status: granted separately from screen access (docs/domain.md, "Origination"). */
export const ACTION_PERMISSIONS = [
  { path: '/actions/users/change-profile', label: 'Cambiar el perfil de un usuario', group: 'users' },
  { path: '/actions/users/change-email', label: 'Cambiar el correo de un usuario', group: 'users' },
  { path: '/actions/origination/approve', label: 'Aprobar o rechazar solicitudes', group: 'origination' },
  { path: '/actions/origination/disburse', label: 'Dispersar créditos', group: 'origination' },
  { path: '/actions/wallet/apply-file', label: 'Aplicar archivos de pagos', group: 'wallet' },
  { path: '/actions/wallet/revert-file', label: 'Revertir archivos de pagos', group: 'wallet' },
  { path: '/actions/wallet/close-day', label: 'Cerrar el día (fecha flujo)', group: 'wallet' },
  { path: '/actions/wallet/issue-deduction-order', label: 'Emitir y sustituir cédulas de descuento', group: 'wallet' },
  { path: '/actions/wallet/request-refund', label: 'Solicitar devoluciones de saldo a favor', group: 'wallet' },
  { path: '/actions/wallet/approve-refund', label: 'Aprobar o declinar devoluciones de saldo a favor', group: 'wallet' },
  { path: '/actions/treasury/generate-batch', label: 'Generar lotes de órdenes de pago', group: 'treasury' },
  { path: '/actions/treasury/authorize-batch', label: 'Autorizar lotes y registrar la respuesta del banco', group: 'treasury' },
  { path: '/actions/credit-tools/issue-letter', label: 'Emitir cartas de liquidación', group: 'credit-tools' },
  { path: '/actions/credit-tools/upload-letter-template', label: 'Subir versiones de la plantilla de carta', group: 'credit-tools' },
  { path: '/actions/agreements/renewal-minimum', label: 'Fijar el monto neto mínimo de una renovación', group: 'agreements' },
] as const satisfies readonly { path: string; label: string; group: NavGroupKey }[];

export type ActionPath = (typeof ACTION_PERMISSIONS)[number]['path'];
export type PermissionPath = ScreenPath | ActionPath;

export const ALL_PERMISSION_PATHS: PermissionPath[] = [...SCREEN_PATHS, ...ACTION_PERMISSIONS.map((action) => action.path)];

/** The permission paths of one sidebar group, its actions included. */
export function groupPermissionPaths(key: NavGroupKey): PermissionPath[] {
  const group = NAV_GROUPS.find((candidate) => candidate.key === key);
  const screens: PermissionPath[] = group ? group.items.map((entry) => entry.path) : [];
  return [...screens, ...ACTION_PERMISSIONS.filter((action) => action.group === key).map((action) => action.path)];
}

/**
 * Detail routes are opened through their area's list: `/user/user-edit/{id}` needs `/user/user-list`.
 * The web router and the API use this same table.
 */
export const DETAIL_ROUTE_PERMISSIONS = {
  '/user/user-edit/:id': '/user/user-list',
  '/origination/pre-request-edit/:id': '/origination/pre-request-new',
  '/catalog/contract-edit/:id': '/catalog/contract-list',
  '/wallet/credits/credits-view/:id': '/wallet/credits/credits-list',
  '/wallet/files-pay-detail/:id': '/wallet/files-pay-list',
  '/wallet/deduction-orders/:id': '/wallet/deduction-orders',
  '/treasury/payment-orders/:id': '/treasury/payment-orders',
  '/admon-wallet/report-edit/:id': '/admon-wallet/reports-list',
  // The portal's mail, opened from the user list: its links open accounts, so it takes the permission that issues them.
  '/user/mail': '/user/user-new',
} as const satisfies Record<string, ScreenPath>;

export const HOME_PATH = '/home';
export const SIGN_IN_PATH = '/session/signin';
export const FORGOT_PASSWORD_PATH = '/session/forgot-password';
export const NOT_FOUND_PATH = '/session/404';
