import { describe, expect, it } from 'vitest';
import { checkClabe } from '@portal/lending';
import { SPEI_PORTAL_V1, bankText, parseAnswer, renderCsv, renderFixed, type BatchForFile } from './bank-layout';

/**
 * The CLABEs below, checked by hand (weights 3, 7, 1 over the first 17 digits, each product mod 10, summed; the
 * control digit is (10 − sum mod 10) mod 10):
 *
 * 01218000123456789·: products 0,7,2,3,56,0,0,0,1,6,21,4,15,42,7,24,63 → mod 10: 0,7,2,3,6,0,0,0,1,6,1,4,5,2,7,4,3
 *   → sum 51 → (10 − 1) mod 10 = 9 → 012180001234567899 (BBVA, bank code 012).
 * 00201007777777777·: products 0,0,2,0,7,0,0,49,7,21,49,7,21,49,7,21,49 → mod 10: 0,0,2,0,7,0,0,9,7,1,9,7,1,9,7,1,9
 *   → sum 69 → (10 − 9) mod 10 = 1 → 002010077777777771 (Banamex, 002).
 */
const BENEFICIARY_CLABE = '012180001234567899';
const SOURCE_CLABE = '002010077777777771';

const batch: BatchForFile = {
  sourceAccount: SOURCE_CLABE,
  date: '2026-11-23',
  folioNumber: 12,
  total: '15234.57',
  lines: [
    {
      line: 1,
      trackingKey: 'T00000012000001',
      clabe: BENEFICIARY_CLABE,
      beneficiary: 'José Ñúñez Peña',
      beneficiaryId: 'NUPJ800101HJCXXX09',
      amount: '15000.00',
      concept: 'DISPERSION CREDITO 00000123',
      reference: '0000123',
    },
    {
      line: 2,
      trackingKey: 'T00000012000002',
      clabe: SOURCE_CLABE,
      beneficiary: "María O'Connor-Gómez",
      beneficiaryId: null,
      amount: '234.57',
      concept: 'Devolución saldo a favor — crédito 00000077 (sobrepago de nómina)',
      reference: '0000077',
    },
  ],
};

describe('bank file layout (SPEI masivo, portal v1)', () => {
  it('checks the CLABEs of the hand calculation and their participant banks', () => {
    expect(checkClabe(BENEFICIARY_CLABE)).toMatchObject({ ok: true, bank: { code: '012' } });
    expect(checkClabe(SOURCE_CLABE)).toMatchObject({ ok: true, bank: { code: '002' } });
    expect(checkClabe('012180001234567898')).toMatchObject({ ok: false, reason: 'check-digit' });
    // 999 is no SPEI participant, whatever its control digit: 99900000000000000· → 9·3=27,9·7=63,9·1=9 → 7+3+9=19 → 1.
    expect(checkClabe('999000000000000001')).toMatchObject({ ok: false, reason: 'bank' });
  });

  it('writes the hand-written expected file: header, details and trailer at their widths', () => {
    const expected =
      // H | source account (18) | date (8) | folio (10) | lines (6) | total in centavos (15)
      'H' +
      '002010077777777771' +
      '20261123' +
      '0000000012' +
      '000002' +
      '000000001523457' +
      '\r\n' +
      // D | line (6) | tracking key (30) | CLABE (18) | beneficiary (40) | RFC/CURP (18) | amount (15) | concept (40) | reference (7)
      'D' +
      '000001' +
      'T00000012000001               ' +
      '012180001234567899' +
      'JOSE NUNEZ PENA                         ' +
      'NUPJ800101HJCXXX09' +
      '000000001500000' +
      'DISPERSION CREDITO 00000123             ' +
      '0000123' +
      '\r\n' +
      'D' +
      '000002' +
      'T00000012000002               ' +
      '002010077777777771' +
      'MARIA O CONNOR GOMEZ                    ' +
      '                  ' +
      '000000000023457' +
      'DEVOLUCION SALDO A FAVOR CREDITO 0000007' +
      '0000077' +
      '\r\n' +
      // T | lines (6) | total (15)
      'T' +
      '000002' +
      '000000001523457' +
      '\r\n';
    const file = renderFixed(SPEI_PORTAL_V1, batch);
    expect(file).toBe(expected);
    const records = file.split('\r\n').filter(Boolean);
    expect(records.map((record) => record.length)).toEqual([58, 175, 175, 22]);
  });

  it('writes the CSV alternative with the same values, amounts in pesos', () => {
    expect(renderCsv(SPEI_PORTAL_V1, batch)).toBe(
      'linea,clave_rastreo,cuenta_origen,clabe_beneficiario,beneficiario,rfc_curp,importe,concepto,referencia_numerica\r\n' +
        '1,T00000012000001,002010077777777771,012180001234567899,JOSE NUNEZ PENA,NUPJ800101HJCXXX09,15000.00,DISPERSION CREDITO 00000123,0000123\r\n' +
        '2,T00000012000002,002010077777777771,002010077777777771,MARIA O CONNOR GOMEZ,,234.57,DEVOLUCION SALDO A FAVOR CREDITO 0000007,0000077\r\n',
    );
  });

  it('keeps a concept within 40 characters, upper case without accents', () => {
    expect(bankText('  Dévolución   ñandú  ')).toBe('DEVOLUCION NANDU');
  });

  it('reads the bank answer: header skipped, DD/MM/AAAA dates, rejections with their reason', () => {
    const answer = parseAnswer(
      '\uFEFFclave_rastreo,resultado,motivo,fecha\r\nT00000012000001,LIQUIDADA,,23/11/2026\r\nT00000012000002;RECHAZADA;Cuenta cancelada;\r\n',
    );
    expect(answer).toEqual([
      { trackingKey: 'T00000012000001', result: 'liquidada', settledOn: '2026-11-23' },
      { trackingKey: 'T00000012000002', result: 'rechazada', reason: 'Cuenta cancelada' },
    ]);
    expect(() => parseAnswer('T1,RECHAZADA,,\r\n')).toThrow(/no trae motivo/);
    expect(() => parseAnswer('T1,QUIZAS,,\r\n')).toThrow(/Línea 1/);
  });
});
