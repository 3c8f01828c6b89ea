import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanMoney, cleanPhone, dateField, moneyField, parseMoney, phoneField } from './fields';

describe('forgiving fields', () => {
  it.each([
    ['30,000', '30000.00'],
    ['$12,500.00', '12500.00'],
    ['$ 1,234,567.5', '1234567.50'],
    [' 8500 ', '8500.00'],
    ['8500.5 MXN', '8500.50'],
  ])('money %s → %s', (typed, expected) => {
    expect(parseMoney(typed)).toBe(expected);
    expect(moneyField('Monto', '8500').parse(typed)).toBe(expected);
  });

  it('refuses what is not an amount, with the field named', () => {
    expect(parseMoney('30,00')).toBeNull();
    expect(cleanMoney('diez mil')).toBe('diezmil');
    expect(moneyField('Monto', '8500').safeParse('12.345').error?.issues[0]?.message).toMatch(/^Monto: escribe un importe/);
  });

  it.each([
    ['33 1234 5678', '3312345678'],
    ['(33) 1234-5678', '3312345678'],
    ['+52 33 1234 5678', '3312345678'],
    ['3312345678', '3312345678'],
  ])('phone %s → %s', (typed, expected) => {
    expect(cleanPhone(typed)).toBe(expected);
    expect(phoneField('Teléfono').parse(typed)).toBe(expected);
  });

  it('refuses a phone that is not ten digits', () => {
    expect(phoneField('Teléfono').safeParse('33 1234').success).toBe(false);
  });
});

describe('the one date schema (issue 44)', () => {
  it.each(['1900-01-01', '2024-02-29', '2000-02-29', '2100-12-31'])('accepts %s', (value) => {
    expect(dateField().parse(value)).toBe(value);
  });

  // Year 0 is a multiple of 400, so 0000-02-29 passes a calendar check; PostgreSQL has no year 0.
  it.each(['0000-01-01', '0000-02-29', '1899-12-31', '2101-01-01', '9999-12-31', '+010000-01-01', '-000001-01-01'])(
    'refuses %s as out of range or malformed',
    (value) => {
      expect(dateField('Fecha inicial').safeParse(value).error?.issues[0]?.message).toMatch(/^Fecha inicial: /);
    },
  );

  it.each(['2024-02-30', '2023-02-29', '2100-02-29', '2024-13-01', '2024-1-01', '20240101', '2024-01-01T00:00:00Z', ''])(
    'refuses %s as not a day',
    (value) => {
      expect(dateField().safeParse(value).success).toBe(false);
    },
  );

  it('is the only date schema of the contract and the API', () => {
    const roots = [join(__dirname), join(__dirname, '../../../apps/api/src')];
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !path.endsWith(join('contract', 'src', 'fields.ts')))
          if (/z\.iso\.date\(|z\.date\(/.test(readFileSync(path, 'utf8'))) offenders.push(path);
      }
    };
    roots.forEach(walk);
    expect(offenders).toEqual([]);
  });
});
