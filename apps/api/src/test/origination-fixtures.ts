import { and, eq, lte, sql } from 'drizzle-orm';
import { clabeCheckDigit, curpCheckDigit } from '@portal/lending';
import type { Tx } from '../db/client';
import { expectedDeductions, installments } from '../db/schema/credits';

/** What the tests of requests and pre-requests capture: one Jalisco client, another, a CLABE. */

/** Seventeen characters and the check digit `check` computes for them (a CURP's, a CLABE's). */
export const withCheckDigit = (first17: string, check: (value: string) => number) => `${first17}${check(first17)}`;
export const CURP = withCheckDigit('PXNE660720HMCXTN0', curpCheckDigit);
export const OTHER_CURP = withCheckDigit('GOMA800101MJCXRN0', curpCheckDigit);
export const CLABE = withCheckDigit('00218012345678901', clabeCheckDigit);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

type Json = Record<string, unknown>;

/** A pre-request's fields for the client of CURP on Jalisco's product (`jal`: its agreement and product ids). */
export const quoteFields = (jal: { agreementId: string; productId: string }, overrides: Json = {}) => ({
  curp: CURP,
  rfc: '',
  firstNames: 'Enrique',
  lastName1: 'Peña',
  lastName2: '',
  ...jal,
  employeeNumber: 'J-1001',
  netSalary: '8000',
  otherDeductions: '500',
  amount: '20000',
  term: 24,
  ...overrides,
});

/** A request's whole capture: the quote's fields, address, contact, references and CLABE. */
export const captureFields = (jal: { agreementId: string; productId: string }, overrides: Json = {}) => ({
  ...quoteFields(jal),
  street: 'Av. Juárez',
  exteriorNumber: '100',
  interiorNumber: '',
  neighborhood: 'Centro',
  municipality: 'Guadalajara',
  state: 'Jalisco',
  postalCode: '44100',
  phone: '3312345678',
  email: 'enrique@correo.mx',
  references: [
    { name: 'Ana López', relationship: 'Hermana', phone: '3311112222' },
    { name: 'Luis Pérez', relationship: 'Compañero', phone: '3333334444' },
  ],
  clabe: CLABE,
  preRequestId: null,
  ...overrides,
});

/** POST /api/requests's multipart body: the capture as `data` and the three documents. */
export async function requestMultipart(data: Json) {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  for (const kind of ['ine', 'comprobante', 'recibo']) form.append(kind, new Blob([PDF]), `${kind}.pdf`);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

/** A credit's first `paid` installments paid, as a payment file would leave them. */
export async function payFirstInstallments(db: Tx, creditId: string, paid: number): Promise<void> {
  await db
    .update(installments)
    .set({ paidPrincipal: sql`principal`, paidInterest: sql`interest`, paidIva: sql`iva` })
    .where(and(eq(installments.creditId, creditId), lte(installments.number, paid)));
  await db
    .update(expectedDeductions)
    .set({ state: 'recibido' })
    .where(and(eq(expectedDeductions.creditId, creditId), lte(expectedDeductions.period, paid)));
}
