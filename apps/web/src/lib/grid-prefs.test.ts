import { beforeEach, describe, expect, it } from 'vitest';
import { moveField, readGridPrefs } from './grid-prefs';

describe('remembered grid columns', () => {
  beforeEach(() => window.localStorage.clear());

  it('moves a column one place, completing the order from the declared columns', () => {
    expect(moveField([], ['folio', 'status', 'client'], 'client', -1)).toEqual(['folio', 'client', 'status']);
    expect(moveField(['status', 'folio'], ['folio', 'status', 'client'], 'folio', 1)).toEqual(['status', 'client', 'folio']);
    expect(moveField([], ['folio', 'status'], 'folio', -1)).toEqual(['folio', 'status']);
  });

  it('reads what was stored and ignores what is not a choice', () => {
    window.localStorage.setItem(
      'grid-columns:requests',
      JSON.stringify({ hidden: ['curp', 3], widths: { client: 240 }, order: ['status'] }),
    );
    expect(readGridPrefs('requests')).toEqual({ hidden: ['curp'], widths: { client: 240 }, order: ['status'] });
    window.localStorage.setItem('grid-columns:users', '{broken');
    expect(readGridPrefs('users')).toBeNull();
  });
});
