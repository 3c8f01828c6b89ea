import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { creditSchema } from '@portal/contract';
import { answerSerializerCompiler, compileAnswersOf } from './answer-serializer';

/** A credit view's answer as loadCredit makes it. */
const amounts = {
  principal: '1.00',
  interest: '2.00',
  iva: '0.32',
  moratoryInterest: '0.00',
  moratoryIva: '0.00',
  fees: '0.00',
  feesIva: '0.00',
  total: '3.32',
};
const credit = {
  id: 'c',
  folio: 'CR-00000001',
  status: 'vigente',
  daysPastDue: 3,
  bucket: '1-30',
  businessDate: '2026-11-24',
  requestId: 'r',
  requestFolio: 'SOL-1',
  clientId: 'k',
  clientName: 'María Pérez',
  curp: 'X',
  rfc: null,
  agreementId: 'g',
  agreement: 'Convenio',
  company: 'Demo',
  employeeNumber: '7',
  product: { name: 'P', annualRatePct: '60', ivaRatePct: '16', openingFeePct: '2', openingFeeFinanced: true },
  frequency: 'quincenal',
  term: 24,
  amount: '10000.00',
  openingFee: '200.00',
  openingFeeIva: '32.00',
  principal: '10232.00',
  netDisbursed: '10000.00',
  installment: '600.00',
  cat: '98.1',
  clabe: '0',
  disbursementDate: '2026-01-01',
  firstDueDate: '2026-01-15',
  lastDueDate: '2026-12-31',
  disbursedBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  labels: [],
  balances: amounts,
  firstInstallment: { interest: '2.00', iva: '0.32' },
  nextDeduction: null,
  creditBalance: '0.00',
  paymentCount: 2,
  letterCount: 0,
  liquidationReason: null,
  renewedBy: { id: 'o', folio: 'CR-2' },
  renews: [{ id: 'p', folio: 'CR-3' }],
};

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as never;

describe('compiled answers', () => {
  const schema = z.object({
    id: z.string(),
    count: z.number().int(),
    rate: z.number(),
    state: z.enum(['vigente', 'liquidado']),
    note: z.string().nullable(),
    first: z.object({ interest: z.string(), iva: z.string() }).nullable(),
    labels: z.array(z.string()),
    items: z.array(z.object({ n: z.number().int(), when: z.string().optional() })),
  });
  compileAnswersOf(schema);
  const viaZod = (data: unknown) => JSON.stringify(z.encode(schema, data as never));

  it('writes the bytes zod writes: order, nulls, escapes, optional fields, extra fields left out', () => {
    const answers = [
      { id: 'a', count: 0, rate: 1.5, state: 'vigente', note: null, first: null, labels: [], items: [] },
      {
        labels: ['Jubilado', 'Ñandú "x" \\ \u2028 \n é'],
        id: 'b',
        secret: 'never sent',
        count: -12,
        rate: 1e21,
        state: 'liquidado',
        note: 'línea\tdos',
        first: { iva: '0.16', interest: '1.00', extra: 1 },
        items: [{ n: 1 }, { n: 2, when: '2026-11-24', extra: true }],
      },
    ];
    const production = answerSerializerCompiler({ checkEveryAnswer: false })(route(schema));
    const tested = answerSerializerCompiler({ checkEveryAnswer: true })(route(schema));
    for (const answer of answers) {
      expect(production(answer)).toBe(viaZod(answer));
      expect(tested(answer)).toBe(viaZod(answer));
      expect(production(answer)).not.toContain('never sent');
    }
  });

  it('writes the credit view as zod does', () => {
    compileAnswersOf(creditSchema);
    const write = answerSerializerCompiler({ checkEveryAnswer: false })(route(creditSchema));
    expect(write(credit)).toBe(JSON.stringify(z.encode(creditSchema, credit as never)));
  });

  it('writes hostile texts in every text field as zod does, and never a field the schema does not name', () => {
    compileAnswersOf(creditSchema);
    const write = answerSerializerCompiler({ checkEveryAnswer: false })(route(creditSchema));
    const viaZod = (data: unknown) => JSON.stringify(z.encode(creditSchema, data as never));
    const hostile = [
      '"',
      '\\',
      '\\"',
      '\u0000\u0001\u0008\u000b\u001f\u007f',
      '\u2028\u2029',
      'María 😀 Ñandú',
      '\ud800',
      '\udfff',
      'a\ud83dz',
      '\ud83d\ude00\ud83d',
      '</script><script>alert(1)</script>',
      '{"a":1}',
      'NULL',
      '',
      'é'.repeat(41) + '"',
      'x'.repeat(200_000) + '\ud800',
    ];
    const enums = new Set(['status', 'bucket', 'frequency']);
    const texts = Object.entries(credit).filter(([key, value]) => typeof value === 'string' && !enums.has(key));
    expect(texts.length).toBeGreaterThan(20);
    for (const [key] of texts)
      for (const text of hostile) {
        const answer = {
          ...credit,
          [key]: text,
          product: { ...credit.product, name: text },
          labels: [text],
          renews: [{ id: text, folio: text }],
        };
        expect(write(answer)).toBe(viaZod(answer));
        // Read back as written: a lone surrogate escaped as JSON.stringify escapes it, never raw.
        expect((JSON.parse(write(answer)) as Record<string, unknown>)[key]).toBe(text);
      }
    // Fields the schema does not name, at every level: never written.
    const extra = { secreto: 'nunca', clabeCompleta: '012345678901234567' };
    const widened = {
      ...credit,
      ...extra,
      product: { ...credit.product, ...extra },
      balances: { ...credit.balances, ...extra },
      firstInstallment: { ...credit.firstInstallment, ...extra },
      renewedBy: { ...credit.renewedBy, ...extra },
      renews: credit.renews.map((renewed) => ({ ...renewed, ...extra })),
    };
    expect(write(widened)).toBe(viaZod(widened));
    expect(write(widened)).toBe(write(credit));
    expect(write(widened)).not.toMatch(/secreto|nunca|clabeCompleta/);
  });

  it('in the tests, refuses an answer zod refuses, and a writing that differs from zod', () => {
    const tested = answerSerializerCompiler({ checkEveryAnswer: true })(route(schema));
    expect(() => tested({ id: 'a', count: '3', rate: 1, state: 'vigente', note: null, first: null, labels: [], items: [] })).toThrow();
    // A number where the schema says integer: the compiled writer would truncate it, zod refuses it.
    expect(() => tested({ id: 'a', count: 1.5, rate: 1, state: 'vigente', note: null, first: null, labels: [], items: [] })).toThrow();
  });

  it('leaves a schema not compiled to zod', () => {
    const other = z.object({ id: z.string() });
    const write = answerSerializerCompiler({ checkEveryAnswer: false })(route(other));
    expect(() => write({ id: 3 })).toThrow();
  });
});
