import { describe, expect, it } from 'vitest';
import { NAV_GROUPS, SCREEN_PATHS, groupPermissionPaths } from '@portal/contract';
import { visibleNavigation } from './navigation';

const withPaths = (paths: string[]) => ({ permissions: paths.map((path) => ({ path })) });

describe('visible sidebar', () => {
  it('shows the seed groups in order with every item for a full permission list', () => {
    const groups = visibleNavigation(withPaths(SCREEN_PATHS));
    expect(groups.map((group) => group.label)).toEqual([
      'Usuarios',
      'Originacion',
      'Cartera',
      'Tesorería',
      'Creditos',
      'Convenios',
      'Admon Cartera',
    ]);
    expect(groups.flatMap((group) => group.items)).toHaveLength(22);
  });

  it('hides items without their path and groups left empty', () => {
    const groups = visibleNavigation(withPaths(groupPermissionPaths('wallet')));
    expect(groups.map((group) => group.key)).toEqual(['wallet']);
    expect(groups[0]!.items.map((entry) => entry.label)).toEqual(NAV_GROUPS[2].items.map((entry) => entry.label));
  });

  it('shows a single permitted item alone in its group', () => {
    const groups = visibleNavigation(withPaths(['/catalog/contract-new']));
    expect(groups).toEqual([{ key: 'agreements', label: 'Convenios', items: [expect.objectContaining({ label: 'Nuevo Convenio' })] }]);
  });

  it('shows nothing to nobody', () => {
    expect(visibleNavigation(null)).toEqual([]);
  });
});
