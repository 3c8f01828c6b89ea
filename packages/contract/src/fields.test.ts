import { describe, expect, it } from 'vitest';
import { cleanMoney, cleanPhone, moneyField, parseMoney, phoneField } from './fields';

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
