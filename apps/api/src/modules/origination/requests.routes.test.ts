import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSchedule, clabeCheckDigit, curpCheckDigit, formatCents, parseCents } from '@portal/lending';
import { REQUEST_ACTIONS, REQUEST_STATUSES, type RequestAction, type RequestStatus } from '@portal/contract';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { auditEvents } from '../../db/schema/audit';
import { credits, expectedDeductions, installments } from '../../db/schema/credits';
import { paymentOrders } from '../../db/schema/treasury';
import { preRequests, requests } from '../../db/schema/origination';
import { companies } from '../../db/schema/users';
import { CLABE, captureFields, withCheckDigit } from '../../test/origination-fixtures';

type Json = Record<string, unknown>;
type Headers = { authorization: string };
type Detail = {
  id: string;
  folio: string;
  status: RequestStatus;
  version: number;
  documents: number;
  creditId: string | null;
  creditFolio: string | null;
};

const curp = (first17: string) => withCheckDigit(first17, curpCheckDigit);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);
const ALL_DOCUMENTS = { ine: ['ine.png', PNG], comprobante: ['luz.pdf', PDF], recibo: ['recibo.jpg', JPG] } as const;

/** A multipart body as a browser's FormData sends it: the `data` field first, then the files. */
async function multipart(fields: Record<string, string>, files: Record<string, readonly [string, Buffer]> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, [fileName, content]] of Object.entries(files)) form.append(name, new Blob([content]), fileName);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

describe.each(BEHAVIOUR_ENGINES)('Solicitudes API (%s)', (engine) => {
  let ctx: TestContext;
  let originacion: Headers;
  let admin: Headers;
  let tesoreria: Headers;
  let jal: { agreementId: string; productId: string };

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.reset();
    originacion = await ctx.as('originacion@demo.mx');
    admin = await ctx.as('admin@demo.mx');
    tesoreria = await ctx.as('tesoreria@demo.mx');
    const [row] = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(eq(agreements.code, 'GOB-JAL')),
    );
    jal = row!;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Json, headers: Headers = originacion) =>
    ctx.app.inject({ method, url, payload, headers });

  // The shared capture with a second surname and an e-mail in mixed case (kept as typed, found without case).
  const capture = (overrides: Json = {}) => captureFields(jal, { lastName2: 'Nieto', email: 'Enrique@Correo.mx', ...overrides });

  async function post(data: Json, files: Record<string, readonly [string, Buffer]> = ALL_DOCUMENTS, headers: Headers = originacion) {
    const body = await multipart({ data: JSON.stringify(data) }, files);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/requests',
      payload: body.payload,
      headers: { ...headers, 'content-type': body.contentType },
    });
  }

  async function created(overrides: Json = {}): Promise<Detail> {
    const response = await post(capture(overrides));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Detail>();
  }

  async function act(request: Detail, action: RequestAction, headers: Headers, extra: Json = {}) {
    return call('POST', `/api/requests/${request.id}/${action}`, { version: request.version, ...extra }, headers);
  }

  /** A request carried to `status` by the allowed steps: captured by Originación, decided by the administrator, disbursed by Tesorería. */
  async function inStatus(status: RequestStatus, curpFirst17: string): Promise<Detail> {
    let request = await created({ curp: curp(curpFirst17), lastName2: '' });
    const step = async (action: RequestAction, headers: Headers, extra: Json = {}) => {
      const response = await act(request, action, headers, extra);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<Detail | { request: Detail }>();
      request = 'request' in body ? body.request : body;
    };
    if (status === 'capturada') return request;
    if (status === 'cancelada') return step('cancel', originacion, { reason: 'El cliente desistió.' }).then(() => request);
    await step('submit', originacion);
    if (status === 'rechazada') await step('reject', admin, { reason: 'Recibo de nómina ilegible.' });
    if (status === 'aprobada' || status === 'dispersada') await step('approve', admin);
    if (status === 'dispersada') await step('disburse', tesoreria, { disbursementDate: '2026-11-23' });
    return request;
  }

  it('converts a sent pre-request into a captured request with its three documents, in one transaction', async () => {
    const draft = (await call('POST', '/api/pre-requests', capture({ preRequestId: undefined }))).json<{
      id: string;
      version: number;
      folio: string;
    }>();
    await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version });

    const request = await created({ preRequestId: draft.id });
    expect(request).toMatchObject({
      status: 'capturada',
      documents: 3,
      preRequestFolio: draft.folio,
      email: 'enrique@correo.mx',
      bank: 'Banamex',
      createdBy: 'originacion@demo.mx',
      simulation: {
        result: 'pre-aprobada',
        installment: buildSchedule({
          principal: '20000.00',
          annualRate: '0.36',
          ivaRate: '0.16',
          term: 24,
          frequency: 'quincenal',
          firstDueDate: '2026-11-30',
        }).installment,
      },
    });
    expect(request.folio).toMatch(/^SOL-\d{6}$/);
    expect((await call('GET', `/api/pre-requests/${draft.id}`)).json()).toMatchObject({ status: 'convertida' });

    const file = await call('GET', `/api/requests/${request.id}/documents/comprobante`);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);

    const again = await post(capture({ preRequestId: draft.id }));
    expect(again.statusCode).toBe(409);
    expect(again.json<{ detail: string }>().detail).toBe(
      `No se puede convertir la pre-solicitud ${draft.folio} en estado convertida; solo las enviadas.`,
    );
    const audit = await ctx.system((db) =>
      db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, request.id)),
    );
    expect(audit.map((event) => event.action).sort()).toEqual([
      'request.create',
      'request.document.upload',
      'request.document.upload',
      'request.document.upload',
    ]);
  });

  it('counts the author of the pre-request a request was converted from among its capturers: it may not decide it', async () => {
    const draft = (await call('POST', '/api/pre-requests', capture({ preRequestId: undefined }), admin)).json<{
      id: string;
      version: number;
    }>();
    expect((await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version }, admin)).statusCode).toBe(200);
    let request = await created({ preRequestId: draft.id });
    request = (await act(request, 'submit', originacion)).json<Detail>();
    const byAuthor = await act(request, 'approve', admin);
    expect(byAuthor.statusCode).toBe(403);
    expect(byAuthor.json<{ detail: string }>().detail).toMatch(/^Quien capturó o modificó la solicitud/);
    const mesa = await ctx.as('mesa@demo.mx');
    expect((await act(request, 'approve', mesa)).json()).toMatchObject({ status: 'aprobada', decidedBy: 'mesa@demo.mx' });
  });

  it('refuses bad fields, a bad CLABE and bad documents with the reason, and keeps nothing', async () => {
    const badClabe = await post(capture({ clabe: `${CLABE.slice(0, 17)}${(Number(CLABE[17]) + 1) % 10}` }));
    expect(badClabe.statusCode).toBe(400);
    expect(badClabe.json()).toMatchObject({ errors: [{ field: 'clabe', message: expect.stringMatching(/dígito verificador/) }] });

    const badFields = await post(
      capture({
        postalCode: '441',
        references: [
          { name: 'Ana', relationship: 'Hermana', phone: '33-1111' },
          { name: 'Luis', relationship: 'Amigo', phone: '3333334444' },
        ],
      }),
    );
    expect(badFields.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
      { field: 'postalCode', message: 'Código postal: 5 dígitos.' },
      { field: 'references.0.phone', message: 'Teléfono de la referencia: escribe los 10 dígitos, por ejemplo 33 1234 5678.' },
    ]);

    const disguised = await post(capture(), {
      ine: ['ine.pdf', Buffer.from('MZ\x90\x00 not a pdf')],
      recibo: ['vacio.pdf', Buffer.alloc(0)],
    });
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json<{ errors: unknown[] }>().errors).toEqual([
      { field: 'documents.ine', message: 'INE: solo se aceptan PDF, JPG, PNG; «ine.pdf» no es ninguno de ellos.' },
      { field: 'documents.recibo', message: 'Recibo de nómina: el archivo «vacio.pdf» está vacío.' },
    ]);

    const huge = await post(capture(), { comprobante: ['escaneo.pdf', Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)])] });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toMatchObject({
      errors: [{ field: 'documents.comprobante', message: 'Comprobante de domicilio: el archivo pesa más de 5 MB.' }],
    });

    const [stored] = await ctx.system((db) => db.select({ total: count() }).from(requests));
    expect(stored!.total).toBe(0);
  });

  it('walks the status machine with two people and disburses into a credit whose schedule is buildSchedule', async () => {
    let request = await created();
    const submitted = await act(request, 'submit', originacion);
    request = submitted.json<Detail>();
    expect(request.status).toBe('en validación');

    const ownApproval = await act(request, 'approve', originacion);
    expect(ownApproval.statusCode).toBe(403);
    expect(ownApproval.json<{ detail: string }>().detail).toMatch(
      /^Quien capturó o modificó la solicitud \(sus datos o documentos\) no puede aprobarla/,
    );
    const ownRejection = await act(request, 'reject', originacion, { reason: 'Me equivoqué de monto.' });
    expect(ownRejection.statusCode).toBe(403);
    const openRequest = await call('POST', '/api/pre-requests/simulate', capture({ preRequestId: undefined, amount: '5000' }));
    expect(openRequest.json()).toMatchObject({
      result: 'rechazada',
      reasons: [{ code: 'open-request', message: `Esta CURP ya tiene una solicitud en curso (${request.folio}, en validación).` }],
    });

    request = (await act(request, 'approve', admin)).json<Detail>();
    expect(request).toMatchObject({ status: 'aprobada', decidedBy: 'admin@demo.mx' });

    const approverDisburses = await act(request, 'disburse', admin, { disbursementDate: '2026-11-23' });
    expect(approverDisburses.statusCode).toBe(403);
    expect(approverDisburses.json<{ detail: string }>().detail).toBe(
      'Quien aprobó la solicitud no puede dispersarla: debe hacerlo una tercera persona con el permiso de dispersión (por ejemplo, Tesorería).',
    );

    const tooEarly = await act(request, 'disburse', tesoreria, { disbursementDate: '2026-11-22' });
    expect(tooEarly.json()).toMatchObject({
      errors: [
        { field: 'disbursementDate', message: 'La fecha de dispersión debe estar entre la aprobación (2026-11-23) y hoy (2026-11-23).' },
      ],
    });

    const disbursed = await act(request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' });
    expect(disbursed.statusCode, disbursed.body).toBe(200);
    const result = disbursed.json<{ request: Detail; creditId: string; creditFolio: string }>();
    expect(result.request).toMatchObject({ status: 'dispersada', creditId: result.creditId, creditFolio: result.creditFolio });
    expect(result.creditFolio).toMatch(/^CR-\d{8}$/);

    const credit = (await call('GET', `/api/credits/${result.creditId}`, undefined, admin)).json<Json>();
    const { items: schedule } = (await call('GET', `/api/credits/${result.creditId}/installments`, undefined, admin)).json<{
      items: Json[];
    }>();
    // Disbursed 2026-11-23, first discount 2026-11-30 (GOB-JAL needs 5 days before its payroll closes): 7 days by days.
    const expected = buildSchedule({
      principal: '20000.00',
      annualRate: '0.36',
      ivaRate: '0.16',
      term: 24,
      frequency: 'quincenal',
      firstDueDate: '2026-11-30',
      disbursementDate: '2026-11-23',
    });
    const columnSum = (rows: { interest: string; iva: string }[], key: 'interest' | 'iva') =>
      formatCents(rows.reduce((sum, row) => sum + parseCents(row[key], key), 0n));
    expected.rows = expected.rows.map(({ days: _days, ...row }) => row);
    expect(credit).toMatchObject({
      status: 'vigente',
      amount: '20000.00',
      // 2 % of 20,000.00 = 400.00 plus 16 % IVA = 64.00, both deducted: 19,536.00 disbursed.
      openingFee: '400.00',
      openingFeeIva: '64.00',
      principal: '20000.00',
      netDisbursed: '19536.00',
      installment: expected.installment,
      disbursementDate: '2026-11-23',
      firstDueDate: '2026-11-30',
      lastDueDate: expected.rows[23]!.dueDate,
      // Nothing paid yet: all the principal is owed, and every row's interest with its IVA.
      balances: {
        principal: '20000.00',
        interest: columnSum(expected.rows, 'interest'),
        iva: columnSum(expected.rows, 'iva'),
        moratoryInterest: '0.00',
        fees: '0.00',
      },
      product: { name: expect.any(String), annualRatePct: '36', ivaRatePct: '16', openingFeePct: '2', openingFeeFinanced: false },
    });
    expect(
      schedule.map(({ number, dueDate, principal, interest, iva, payment, balance }) => ({
        number,
        dueDate,
        principal,
        interest,
        iva,
        payment,
        balance,
      })),
    ).toEqual(expected.rows);
    expect(schedule.every((row) => row.status === 'pendiente' && row.deductionState === 'esperado')).toBe(true);
    const [deductions] = await ctx.system((db) =>
      db.select({ total: count() }).from(expectedDeductions).where(eq(expectedDeductions.creditId, result.creditId)),
    );
    expect(deductions!.total).toBe(24);

    const again = await call('POST', '/api/pre-requests/simulate', capture({ preRequestId: undefined, amount: '5000' }));
    expect(again.json()).toMatchObject({
      result: 'rechazada',
      reasons: [{ code: 'active-credit', message: `Esta CURP ya tiene un crédito activo (${result.creditFolio}).` }],
    });

    const twice = await act(result.request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ detail: string }>().detail).toBe('No se puede dispersar una solicitud en estado dispersada.');
    const actions = await ctx.system((db) =>
      db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, request.id)),
    );
    expect(actions.map((event) => event.action)).toEqual(expect.arrayContaining(['request.submit', 'request.approve', 'request.disburse']));
  });

  it("moves a payday that falls on one of the agreement's non-working days to the previous working day, in the quote and the credit", async () => {
    // GOB-JAL pays on the 15th and the month end. Its payroll does not pay on the weekend of 28–29 Nov 2026 nor on
    // Monday 30 Nov (and not on 31 Dec), and it needs 2 days before its payroll closes: disbursed on Monday 23 Nov, the
    // 30 Nov payday is paid on Friday 27 Nov (the previous working day, still ≥ 25 Nov), a first period of 4 days by
    // days: 20,000.00 × 0.36 × 4 / 360 = 80.00 interest, 12.80 IVA. The series continues from the nominal dates:
    // 15 Dec, then 31 Dec paid on 30 Dec.
    await ctx.system((db) =>
      db
        .update(agreements)
        .set({ cutOffLeadDays: 2, nonWorkingDays: ['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-31'] })
        .where(eq(agreements.id, jal.agreementId)),
    );

    const quote = (await call('POST', '/api/pre-requests/simulate', capture({ preRequestId: undefined }))).json<{
      firstDueDate: string;
      firstPeriodDays: number;
      result: string;
      schedule: Json[];
    }>();
    expect(quote).toMatchObject({ result: 'pre-aprobada', firstDueDate: '2026-11-27', firstPeriodDays: 4, firstPeriodByDays: true });
    expect(quote.schedule.slice(0, 3)).toMatchObject([
      { dueDate: '2026-11-27', interest: '80.00', iva: '12.80', days: 4 },
      { dueDate: '2026-12-15' },
      { dueDate: '2026-12-30' },
    ]);

    let request = await created();
    request = (await act(request, 'submit', originacion)).json<Detail>();
    request = (await act(request, 'approve', admin)).json<Detail>();
    const disbursed = await act(request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' });
    expect(disbursed.statusCode, disbursed.body).toBe(200);
    const creditId = disbursed.json<{ creditId: string }>().creditId;
    const credit = (await call('GET', `/api/credits/${creditId}`, undefined, admin)).json<Json>();
    expect(credit).toMatchObject({ firstDueDate: '2026-11-27', firstInstallment: { interest: '80.00', iva: '12.80' } });
    const { items: schedule } = (await call('GET', `/api/credits/${creditId}/installments`, undefined, admin)).json<{ items: Json[] }>();
    expect(schedule.slice(0, 3)).toMatchObject([
      { dueDate: '2026-11-27', interest: '80.00', iva: '12.80' },
      { dueDate: '2026-12-15' },
      { dueDate: '2026-12-30' },
    ]);
    const deductions = await ctx.system((db) =>
      db
        .select({ period: expectedDeductions.period, discountDate: expectedDeductions.discountDate })
        .from(expectedDeductions)
        .where(eq(expectedDeductions.creditId, creditId)),
    );
    expect(
      deductions
        .sort((a, b) => a.period - b.period)
        .slice(0, 3)
        .map((row) => row.discountDate),
    ).toEqual(['2026-11-27', '2026-12-15', '2026-12-30']);
  });

  it('issue 13 #5: disburses with the terms accepted at approval, not the product as edited since', async () => {
    // Capacity 8,000.00 × 30 % − 1,350.00 = 1,050.00: the 36 % installment 1,026.53 fits, the 48 % one (1,096.14) would not.
    let request = await created({ otherDeductions: '1350' });
    request = (await act(request, 'submit', originacion)).json<Detail>();
    const approved = await act(request, 'approve', admin);
    expect(approved.statusCode, approved.body).toBe(200);
    request = approved.json<Detail>();
    await ctx.system((db) => db.update(agreementProducts).set({ annualRatePct: '48' }).where(eq(agreementProducts.id, jal.productId)));

    const disbursed = await act(request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' });
    expect(disbursed.statusCode, disbursed.body).toBe(200);
    const credit = (await call('GET', `/api/credits/${disbursed.json<{ creditId: string }>().creditId}`, undefined, admin)).json<Json>();
    expect(credit).toMatchObject({ installment: '1026.53', product: { annualRatePct: '36' } });
    const [snapshot] = await ctx.system((db) =>
      db.select({ acceptedTerms: requests.acceptedTerms }).from(requests).where(eq(requests.id, request.id)),
    );
    expect(snapshot!.acceptedTerms).toMatchObject({
      annualRatePct: '36.0000',
      ivaRatePct: '16.0000',
      openingFee: '400.00',
      openingFeeIva: '64.00',
      term: 24,
      installment: '1026.53',
      firstDueDate: '2026-11-30',
    });
  });

  it('property: whatever the product becomes after approval, disbursement prices the credit with the approval snapshot', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 10 }),
        fc.boolean(),
        async (ratePct, feePct, financed) => {
          run += 1;
          await ctx.system((db) =>
            db
              .update(agreementProducts)
              .set({ annualRatePct: '36', openingFeePct: '2', openingFeeFinanced: false })
              .where(eq(agreementProducts.id, jal.productId)),
          );
          let request = await created({ curp: curp(`PXNE6607${10 + run}HMCXTN0`), otherDeductions: '1350' });
          request = (await act(request, 'submit', originacion)).json<Detail>();
          request = (await act(request, 'approve', admin)).json<Detail>();
          await ctx.system((db) =>
            db
              .update(agreementProducts)
              .set({ annualRatePct: String(ratePct), openingFeePct: String(feePct), openingFeeFinanced: financed })
              .where(eq(agreementProducts.id, jal.productId)),
          );
          const disbursed = await act(request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' });
          const credit = (
            await call('GET', `/api/credits/${disbursed.json<{ creditId: string }>().creditId}`, undefined, admin)
          ).json<Json>();
          expect(credit).toMatchObject({
            installment: '1026.53',
            openingFee: '400.00',
            openingFeeIva: '64.00',
            netDisbursed: '19536.00',
            product: { annualRatePct: '36', openingFeePct: '2', openingFeeFinanced: false },
          });
        },
      ),
      { numRuns: 4 },
    );
  });

  it('maker-checker: the capturer and the approver may not disburse, unless the company turns the rule off', async () => {
    // The administrator captures and sends; Mesa de control approves.
    const mesa = await ctx.as('mesa@demo.mx');
    // Typed as people type it: the shared parser cleans the amount and the phone.
    let request = (await post(capture({ amount: '$20,000.00', phone: '33 1234 5678' }), ALL_DOCUMENTS, admin)).json<Detail>();
    expect(request).toMatchObject({ amount: '20000.00', phone: '3312345678' });
    request = (await act(request, 'submit', admin)).json<Detail>();
    request = (await act(request, 'approve', mesa)).json<Detail>();
    expect(request).toMatchObject({ status: 'aprobada', decidedBy: 'mesa@demo.mx' });

    const byCapturer = await act(request, 'disburse', admin, { disbursementDate: '2026-11-23' });
    expect(byCapturer.statusCode).toBe(403);
    expect(byCapturer.json()).toMatchObject({
      title: 'Se requiere otra persona',
      detail:
        'Quien capturó o modificó la solicitud no puede dispersarla: debe hacerlo una tercera persona con el permiso de dispersión (por ejemplo, Tesorería).',
    });
    // Mesa de control approves but holds no disbursement permission at all.
    expect((await act(request, 'disburse', mesa, { disbursementDate: '2026-11-23' })).statusCode).toBe(403);

    await ctx.system((db) => db.update(companies).set({ separateDisbursement: false }));
    const allowed = await act(request, 'disburse', admin, { disbursementDate: '2026-11-23' });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('maker-checker binds whoever changed the capture: an editor or a document replacer may neither decide nor disburse', async () => {
    const mesa = await ctx.as('mesa@demo.mx');
    const userId = async (email: string) =>
      (await call('GET', `/api/core/user/by_email/${email}`, undefined, admin))
        .json<{ data: string[] }>()
        .data.map((text) => JSON.parse(text) as { id: string })[0]!.id;
    let request = await created();
    // Another person rewrites where the money goes, then would approve what they wrote.
    const otherClabe = withCheckDigit('01218099999999999', clabeCheckDigit);
    const edited = await call('PUT', `/api/requests/${request.id}`, { ...capture({ clabe: otherClabe }), version: request.version }, admin);
    expect(edited.statusCode, edited.body).toBe(200);
    request = edited.json<Detail>();
    expect(edited.json()).toMatchObject({
      clabe: otherClabe,
      capturedByIds: [await userId('originacion@demo.mx'), await userId('admin@demo.mx')],
    });
    request = (await act(request, 'submit', originacion)).json<Detail>();
    for (const action of ['approve', 'reject'] as const) {
      const byEditor = await act(request, action, admin, { reason: 'Revisado.' });
      expect(byEditor.statusCode).toBe(403);
      expect(byEditor.json<{ detail: string }>().detail).toMatch(
        /^Quien capturó o modificó la solicitud \(sus datos o documentos\) no puede (aprobarla|rechazarla)/,
      );
    }

    // Tesorería replaces a document while it waits for approval: it may not disburse it afterwards.
    const form = await multipart({}, { file: ['ine-tesoreria.pdf', PDF] });
    const replaced = await ctx.app.inject({
      method: 'PUT',
      url: `/api/requests/${request.id}/documents/ine`,
      payload: form.payload,
      headers: { ...tesoreria, 'content-type': form.contentType },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    request = replaced.json<Detail>();
    // Mesa de control touched nothing: it decides.
    request = (await act(request, 'approve', mesa)).json<Detail>();
    expect(request).toMatchObject({ status: 'aprobada', decidedBy: 'mesa@demo.mx' });
    for (const headers of [tesoreria, admin, originacion]) {
      const byToucher = await act(request, 'disburse', headers, { disbursementDate: '2026-11-23' });
      expect(byToucher.statusCode).toBe(403);
      expect(byToucher.json<{ detail: string }>().detail).toMatch(/^Quien capturó o modificó la solicitud no puede dispersarla/);
    }
    const [stored] = await ctx.system((db) => db.select({ status: requests.status }).from(requests).where(eq(requests.id, request.id)));
    expect(stored!.status).toBe('aprobada');
  });

  it('refuses to send to validation without the three documents, naming what is missing', async () => {
    const request = (await post(capture(), { ine: ALL_DOCUMENTS.ine })).json<Detail>();
    const refused = await act(request, 'submit', originacion);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ detail: string }>().detail).toBe('Para enviar a validación faltan: Comprobante de domicilio, Recibo de nómina.');

    const form = await multipart({}, { file: ALL_DOCUMENTS.recibo });
    const uploaded = await ctx.app.inject({
      method: 'PUT',
      url: `/api/requests/${request.id}/documents/recibo`,
      payload: form.payload,
      headers: { ...originacion, 'content-type': form.contentType },
    });
    expect(uploaded.json()).toMatchObject({ documents: 2, version: request.version + 1 });
    const replace = await multipart({}, { file: ['ine-nueva.pdf', PDF] });
    const replaced = await ctx.app.inject({
      method: 'PUT',
      url: `/api/requests/${request.id}/documents/ine`,
      payload: replace.payload,
      headers: { ...originacion, 'content-type': replace.contentType },
    });
    expect(replaced.json<{ documentList: { kind: string; fileName: string }[] }>().documentList).toContainEqual(
      expect.objectContaining({ kind: 'ine', fileName: 'ine-nueva.pdf' }),
    );
    const audit = await ctx.system((db) =>
      db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, request.id)),
    );
    expect(audit.map((event) => event.action)).toContain('request.document.replace');
  });

  it('refuses every action outside its statuses with a message naming the status, and stale versions', async () => {
    const curps: Record<RequestStatus, string> = {
      capturada: 'GOMA800101HJCRRN0',
      'en validación': 'LOPA750505MJCPRN0',
      aprobada: 'RARM700303HJCMRR0',
      rechazada: 'SAVL820202MJCNLR0',
      dispersada: 'TOHJ780808HJCRRN0',
      cancelada: 'MEPC851111MJCNRR0',
    };
    for (const status of REQUEST_STATUSES) {
      const request = await inStatus(status, curps[status]);
      expect(request.status).toBe(status);
      for (const [action, step] of Object.entries(REQUEST_ACTIONS) as [RequestAction, (typeof REQUEST_ACTIONS)[RequestAction]][]) {
        if ((step.from as readonly string[]).includes(status)) continue;
        const refused = await act(request, action, admin, { reason: 'Motivo de prueba.', disbursementDate: '2026-11-23' });
        expect(refused.statusCode, `${action} en ${status}`).toBe(409);
        expect(refused.json<{ detail: string }>().detail).toBe(`No se puede ${step.verb} una solicitud en estado ${status}.`);
      }
    }
    const request = await inStatus('capturada', 'NUAA900909HJCXXN0');
    const stale = await act({ ...request, version: request.version + 5 }, 'submit', originacion);
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ detail: string }>().detail).toMatch(/^Otra persona modificó esta solicitud \(ahora está capturada\)/);
  });

  it('disburses once when two disbursements of the same request arrive at the same time', async () => {
    const request = await inStatus('aprobada', 'GOMA800101HJCRRN0');
    const answers = await Promise.all([1, 2].map(() => act(request, 'disburse', tesoreria, { disbursementDate: '2026-11-23' })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const [made] = await ctx.system((db) => db.select({ total: count() }).from(credits).where(eq(credits.requestId, request.id)));
    expect(made!.total).toBe(1);
    const [rows] = await ctx.system((db) => db.select({ total: count() }).from(installments));
    expect(rows!.total).toBe(24);
    // Its money leaves through Tesorería: one pending payment order for what the client receives (issue 47).
    const orders = await ctx.system((db) =>
      db
        .select({
          amount: paymentOrders.amount,
          status: paymentOrders.status,
          netDisbursed: credits.netDisbursed,
          clabe: credits.clabe,
          to: paymentOrders.clabe,
        })
        .from(paymentOrders)
        .innerJoin(credits, eq(credits.id, paymentOrders.creditId))
        .where(eq(credits.requestId, request.id)),
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]!.amount).toBe(orders[0]!.netDisbursed);
    expect(orders[0]).toMatchObject({ status: 'por enviar', to: orders[0]!.clabe });
  });

  it("lists requests in SQL with filters, and hides another company's from a user of this one", async () => {
    await inStatus('capturada', 'GOMA800101HJCRRN0');
    await inStatus('rechazada', 'LOPA750505MJCPRN0');
    const list = (query: string, headers = originacion) =>
      call('GET', `/api/requests?${query}`, undefined, headers).then((response) => response.json<{ total: number; items: Detail[] }>());
    expect((await list('page=1&pageSize=10')).total).toBe(2);
    expect((await list('status=rechazada')).items.map((item) => item.status)).toEqual(['rechazada']);
    expect((await list('q=lopa75')).total).toBe(1);
    // A name is found without its case or accents (Enrique Peña, both requests), a CURP's start still by itself.
    expect((await list('q=enrique%20pena')).total).toBe(2);
    expect((await list('q=PE%C3%91A')).total).toBe(2);
    expect((await list('q=pena%25')).total).toBe(0);
    expect((await list('capturer=originacion')).total).toBe(2);
    expect((await list('capturer=admin')).total).toBe(0);
    expect((await list('from=2026-11-24')).total).toBe(0);
    expect((await list('sort=folio')).items[0]!.status).toBe('capturada');

    const acme = (await call('GET', '/api/pre-requests/catalog', undefined, admin))
      .json<{ agreements: { id: string; code: string; products: { id: string }[] }[] }>()
      .agreements.find((agreement) => agreement.code === 'ACME-PRIV')!;
    const foreign = await post(
      capture({
        curp: curp('RARM700303HJCMRR0'),
        lastName2: '',
        agreementId: acme.id,
        productId: acme.products[0]!.id,
        amount: '10000',
        term: 12,
      }),
    );
    expect(foreign.json()).toMatchObject({ errors: [{ field: 'agreementId', message: 'El convenio no existe o no es de tu empresa.' }] });
  });

  it('expires a sent pre-request after 30 days, after which it cannot be converted', async () => {
    const draft = (await call('POST', '/api/pre-requests', capture({ preRequestId: undefined }))).json<{
      id: string;
      version: number;
      folio: string;
    }>();
    await call('POST', `/api/pre-requests/${draft.id}/send`, { version: draft.version });
    ctx.clock.advance(31 * 86_400_000);
    expect((await call('GET', `/api/pre-requests/${draft.id}`)).json()).toMatchObject({ status: 'vencida' });
    const convert = await post(capture({ preRequestId: draft.id }));
    expect(convert.json<{ detail: string }>().detail).toBe(
      `No se puede convertir la pre-solicitud ${draft.folio} en estado vencida; solo las enviadas.`,
    );
    const [expired] = await ctx.system((db) =>
      db.select({ status: preRequests.status }).from(preRequests).where(eq(preRequests.id, draft.id)),
    );
    expect(expired!.status).toBe('vencida');
  });

  it('answers 401 without a token and 403 without the permission on every route of the module', async () => {
    const request = await inStatus('capturada', 'GOMA800101HJCRRN0');
    const form = await multipart({ data: JSON.stringify(capture()) });
    const routes: ['GET' | 'POST' | 'PUT', string, Json?][] = [
      ['GET', '/api/requests'],
      ['GET', `/api/requests/${request.id}`],
      ['PUT', `/api/requests/${request.id}`, { ...capture(), version: 1 }],
      ['GET', `/api/requests/${request.id}/documents/ine`],
      ['POST', `/api/requests/${request.id}/submit`, { version: 1 }],
      ['POST', `/api/requests/${request.id}/approve`, { version: 1 }],
      ['POST', `/api/requests/${request.id}/reject`, { version: 1, reason: 'Motivo de prueba.' }],
      ['POST', `/api/requests/${request.id}/cancel`, { version: 1, reason: 'Motivo de prueba.' }],
      ['POST', `/api/requests/${request.id}/disburse`, { version: 1, disbursementDate: '2026-11-23' }],
      ['GET', `/api/requests/renewable-credits?curp=${curp('GOMA800101HJCRRN0')}`],
    ];
    const cartera = await ctx.as('cartera@demo.mx');
    for (const [method, url, payload] of routes) {
      expect((await ctx.app.inject({ method, url, payload })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, payload, cartera)).statusCode, `${method} ${url}`).toBe(403);
    }
    for (const method of ['POST', 'PUT'] as const) {
      const url = method === 'POST' ? '/api/requests' : `/api/requests/${request.id}/documents/ine`;
      const response = await ctx.app.inject({
        method,
        url,
        payload: form.payload,
        headers: { ...cartera, 'content-type': form.contentType },
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call('GET', `/api/credits/${request.id}`, undefined, originacion)).statusCode).toBe(403);
    expect(ctx.app.registeredRoutes.filter((route) => route.url.startsWith('/api/requests'))).toHaveLength(routes.length + 2);
  });
});
