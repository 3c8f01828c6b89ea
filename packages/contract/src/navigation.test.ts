import { describe, expect, it } from 'vitest';
import { ALL_PERMISSION_PATHS, DETAIL_ROUTE_PERMISSIONS, NAV_GROUPS, SCREEN_PATHS, groupPermissionPaths } from './navigation';

describe('navigation catalogue', () => {
  it('holds the seed sidebar: 7 groups, 22 items (the seed 18, Cédulas de descuento, Estado de cuenta por convenio, Devoluciones and Órdenes de pago), in order', () => {
    expect(NAV_GROUPS.map((group) => group.label)).toEqual([
      'Usuarios',
      'Originacion',
      'Cartera',
      'Tesorería',
      'Creditos',
      'Convenios',
      'Admon Cartera',
    ]);
    expect(SCREEN_PATHS).toHaveLength(22);
    expect(new Set(SCREEN_PATHS).size).toBe(22);
  });

  it('gives each detail route a list path that exists in the sidebar', () => {
    for (const listPath of Object.values(DETAIL_ROUTE_PERMISSIONS)) {
      expect(SCREEN_PATHS).toContain(listPath);
    }
  });

  it('groups the Cartera screens with their money actions and nothing else', () => {
    const wallet = groupPermissionPaths('wallet');
    expect(wallet).toContain('/wallet/credits/credits-list');
    expect(wallet).toContain('/actions/wallet/close-day');
    expect(wallet.every((path) => path.startsWith('/wallet/') || path.startsWith('/actions/wallet/'))).toBe(true);
    expect(ALL_PERMISSION_PATHS).toEqual(expect.arrayContaining(wallet));
  });

  it('gives Tesorería its screen and the two sides of its batches, and Devoluciones its request and approval', () => {
    expect(groupPermissionPaths('treasury')).toEqual([
      '/treasury/payment-orders',
      '/actions/treasury/generate-batch',
      '/actions/treasury/authorize-batch',
    ]);
    expect(groupPermissionPaths('wallet')).toEqual(
      expect.arrayContaining(['/wallet/refunds', '/actions/wallet/request-refund', '/actions/wallet/approve-refund']),
    );
  });
});
