import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format';

describe('es-MX dates', () => {
  it('shows a calendar date as dd/mm/aaaa, never shifted by a time zone', () => {
    expect(formatDate('2026-02-05')).toBe('05/02/2026');
    expect(formatDate('2026-12-31')).toBe('31/12/2026');
    expect(formatDate(null)).toBe('—');
  });

  it('shows an instant as dd/mm/aaaa hh:mm (24 h) in Mexico City', () => {
    expect(formatDateTime('2026-02-15T20:05:00Z')).toBe('15/02/2026 14:05');
    expect(formatDateTime('2026-03-01T05:30:00Z')).toBe('28/02/2026 23:30');
  });
});
