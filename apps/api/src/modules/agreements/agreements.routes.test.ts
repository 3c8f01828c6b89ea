import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { agreementProducts, agreements } from '../../db/schema/agreements';
import { auditEvents } from '../../db/schema/audit';
import { companies } from '../../db/schema/users';
import { xlsxBomb } from '../../test/zip-bomb';

type Json = Record<string, unknown>;

describe.each(BEHAVIOUR_ENGINES)('Convenios API (%s)', (engine) => {
  let ctx: TestContext;
  let admin: { authorization: string };
  let companyId: string;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.reset();
    admin = await ctx.as('admin@demo.mx');
    companyId = (await ctx.system((db) => db.select().from(companies).where(eq(companies.code, 'DEMO'))))[0]!.id;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = admin) =>
    ctx.app.inject({ method, url, payload: payload as Json, headers });

  const agreement = (overrides: Json = {}) => ({
    companyId,
    code: 'sep-ver',
    name: 'Secretaría de Educación de Veracruz',
    employerName: 'Secretaría de Educación de Veracruz',
    employerRfc: 'SEV850101AB1',
    sector: 'estatal',
    frequency: 'quincenal',
    maxDeductionPct: '30',
    remittanceLagDays: 10,
    validFrom: '2026-01-01',
    validTo: null,
    contacts: [{ name: 'Nóminas SEV', email: 'nominas@sev.example.mx', phone: '' }],
    products: [
      {
        name: 'Maestros 24',
        annualRatePct: '34.5',
        ivaRatePct: '16',
        openingFeePct: '2',
        openingFeeFinanced: false,
        terms: [24, 48],
        minAmount: '5000',
        maxAmount: '120000.5',
        maxAgeAtEnd: 75,
      },
    ],
    layout: { format: 'csv', delimiter: ',', hasHeader: true, columns: { employeeNumber: 1, amount: 3 } },
    active: true,
    ...overrides,
  });

  it('lists the seeded agreements, paged, filtered and sorted in SQL', async () => {
    const all = (await call('GET', '/api/agreements?sort=code')).json<{
      items: { code: string; activeProducts: number; company: string }[];
      total: number;
    }>();
    expect(all.items.map((item) => item.code)).toEqual(['ACME-PRIV', 'GOB-JAL', 'IMSS-FED']);
    expect(all.items.find((item) => item.code === 'IMSS-FED')?.activeProducts).toBe(2);
    expect(new Set(all.items.map((item) => item.company)).size).toBe(2);
    const filtered = (await call('GET', '/api/agreements?frequency=quincenal&sector=estatal')).json<{
      items: { code: string }[];
      total: number;
    }>();
    expect(filtered).toMatchObject({ total: 1, items: [{ code: 'GOB-JAL' }] });
    expect((await call('GET', '/api/agreements?q=acme')).json<{ total: number }>().total).toBe(1);
  });

  it('creates an agreement with its products and layout, normalising code and amounts, and audits it', async () => {
    const created = await call('POST', '/api/agreements', agreement());
    expect(created.statusCode).toBe(201);
    const body = created.json<{
      id: string;
      code: string;
      products: { minAmount: string; maxAmount: string; annualRatePct: string }[];
      warnings: unknown[];
      history: { action: string }[];
    }>();
    expect(body.code).toBe('SEP-VER');
    expect(body.products[0]).toMatchObject({ minAmount: '5000.00', maxAmount: '120000.50', annualRatePct: '34.5' });
    expect(body.warnings).toEqual([expect.objectContaining({ field: 'employerRfc' })]);
    expect(body.history).toEqual([expect.objectContaining({ action: 'agreement.create' })]);
    const duplicate = await call('POST', '/api/agreements', agreement({ code: 'SEP-VER' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ errors: [{ field: 'code', message: 'Ya existe un convenio con esa clave.' }] });
  });

  it("keeps the payroll's non-working days in date order, none by default, and refuses a repeated one", async () => {
    const plain = (await call('POST', '/api/agreements', agreement())).json<{ id: string; nonWorkingDays: string[] }>();
    expect(plain.nonWorkingDays).toEqual([]);
    const withHolidays = await call(
      'POST',
      '/api/agreements',
      agreement({ code: 'SEP-VER-2', nonWorkingDays: ['2026-12-25', '2026-09-16'] }),
    );
    expect(withHolidays.statusCode).toBe(201);
    const { id } = withHolidays.json<{ id: string }>();
    expect((await call('GET', `/api/agreements/${id}`)).json()).toMatchObject({ nonWorkingDays: ['2026-09-16', '2026-12-25'] });
    const repeated = await call('POST', '/api/agreements', agreement({ code: 'SEP-VER-3', nonWorkingDays: ['2026-09-16', '2026-09-16'] }));
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({
      errors: [{ field: 'nonWorkingDays', message: 'Días inhábiles de nómina: hay fechas repetidas.' }],
    });
    const seeded = (await call('GET', '/api/agreements?q=GOB-JAL')).json<{ items: { id: string }[] }>().items[0]!;
    expect((await call('GET', `/api/agreements/${seeded.id}`)).json()).toMatchObject({ nonWorkingDays: [] });
  });

  it('validates every rule with its Spanish message', async () => {
    const response = await call(
      'POST',
      '/api/agreements',
      agreement({
        code: 'x',
        employerRfc: 'ABC',
        maxDeductionPct: '150',
        validFrom: '2026-05-01',
        validTo: '2026-01-01',
        products: [
          {
            name: 'P',
            annualRatePct: '0',
            ivaRatePct: '16',
            openingFeePct: '2',
            openingFeeFinanced: false,
            terms: [],
            minAmount: '9000',
            maxAmount: '100',
            maxAgeAtEnd: 120,
          },
        ],
        layout: { format: 'csv', delimiter: ',', hasHeader: true, columns: { amount: 3 } },
      }),
    );
    expect(response.statusCode).toBe(400);
    const messages = response.json<{ errors: { field: string; message: string }[] }>().errors.map((error) => error.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'La clave es de 2 a 20 letras, números o guiones, por ejemplo GOB-JAL.',
        'RFC del patrón no válido: 12 caracteres para una empresa, 13 para una persona.',
        'Descuento máximo: no puede pasar de 100 %.',
        'Tasa anual: debe ser mayor que 0.',
        'Indica al menos un plazo permitido.',
        'Edad máxima: a lo más 99 años.',
        'El layout debe leer el folio del crédito o el número de empleado.',
      ]),
    );
    const badDate = await call('POST', '/api/agreements', agreement({ employerRfc: 'SEV851301AB1' }));
    expect(badDate.json()).toMatchObject({
      errors: [{ field: 'employerRfc', message: 'RFC del patrón no válido: revisa la fecha y las letras.' }],
    });
    const badRange = await call('POST', '/api/agreements', agreement({ validFrom: '2026-05-01', validTo: '2026-01-01' }));
    expect(badRange.json()).toMatchObject({ errors: [{ message: 'La vigencia termina antes de empezar.' }] });
  });

  it('edits with versions, keeps product ids, retires removed products and refuses stale edits', async () => {
    const created = (await call('POST', '/api/agreements', agreement())).json<{
      id: string;
      version: number;
      products: { id: string }[];
    }>();
    const keptId = created.products[0]!.id;
    const update = agreement({
      name: 'SEV — docentes',
      version: created.version,
      products: [
        {
          id: keptId,
          name: 'Maestros 24',
          annualRatePct: '30',
          ivaRatePct: '16',
          openingFeePct: '2',
          openingFeeFinanced: false,
          terms: [24],
          minAmount: '5000',
          maxAmount: '120000',
          maxAgeAtEnd: 75,
        },
        {
          name: 'Maestros 12',
          annualRatePct: '28',
          ivaRatePct: '16',
          openingFeePct: '0',
          openingFeeFinanced: false,
          terms: [12],
          minAmount: '1000',
          maxAmount: '20000',
          maxAgeAtEnd: 75,
        },
      ],
    });
    const saved = await call('PUT', `/api/agreements/${created.id}`, update);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      name: 'SEV — docentes',
      version: 2,
      products: [{ id: keptId, annualRatePct: '30' }, { name: 'Maestros 12' }],
    });
    expect((await call('PUT', `/api/agreements/${created.id}`, update)).statusCode).toBe(409);

    const fewer = agreement({
      version: 2,
      products: [
        {
          id: keptId,
          name: 'Maestros 24',
          annualRatePct: '30',
          ivaRatePct: '16',
          openingFeePct: '2',
          openingFeeFinanced: false,
          terms: [24],
          minAmount: '5000',
          maxAmount: '120000',
          maxAgeAtEnd: 75,
        },
      ],
    });
    await call('PUT', `/api/agreements/${created.id}`, fewer);
    const rows = await ctx.system((db) => db.select().from(agreementProducts).where(eq(agreementProducts.agreementId, created.id)));
    expect(rows.map((row) => [row.name, row.active]).sort()).toEqual([
      ['Maestros 12', false],
      ['Maestros 24', true],
    ]);
    const audit = await ctx.system((db) => db.select().from(auditEvents).where(eq(auditEvents.entityId, created.id)));
    expect(audit.map((event) => event.action).sort()).toEqual(['agreement.create', 'agreement.update', 'agreement.update']);
  });

  it("keeps the cédula's renewal setting: off by default, on when edited, audited, and refused when not a yes or no", async () => {
    const created = (await call('POST', '/api/agreements', agreement())).json<{ id: string; version: number; renewalAsChange: boolean }>();
    expect(created.renewalAsChange).toBe(false);
    const saved = await call('PUT', `/api/agreements/${created.id}`, agreement({ renewalAsChange: true, version: created.version }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ renewalAsChange: true, version: created.version + 1 });
    expect((await call('GET', `/api/agreements/${created.id}`)).json()).toMatchObject({ renewalAsChange: true });
    const [update] = await ctx.system((db) =>
      db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, created.id), eq(auditEvents.action, 'agreement.update'))),
    );
    expect(update!.before).toMatchObject({ renewalAsChange: false });
    expect(update!.after).toMatchObject({ renewalAsChange: true });
    const odd = await call('POST', '/api/agreements', agreement({ code: 'SEP-VER-4', renewalAsChange: 'sí' }));
    expect(odd.statusCode).toBe(400);
    expect(odd.json()).toMatchObject({
      errors: [{ field: 'renewalAsChange', message: 'Renovación en una línea por empleado: sí o no.' }],
    });
  });

  it('deactivates and reactivates with confirmation of the version', async () => {
    const [jal] = (await call('GET', '/api/agreements?q=GOB-JAL')).json<{ items: { id: string; version: number }[] }>().items;
    const off = await call('POST', `/api/agreements/${jal!.id}/status`, { active: false, version: jal!.version });
    expect(off.json()).toMatchObject({ active: false, history: [expect.objectContaining({ action: 'agreement.deactivate' })] });
    expect((await call('POST', `/api/agreements/${jal!.id}/status`, { active: true, version: jal!.version })).statusCode).toBe(409);
  });

  it('opens an agreement whose stored layout cannot be read, saying so, and takes a new layout on saving', async () => {
    const created = (await call('POST', '/api/agreements', agreement())).json<{ id: string }>();
    // As written by hand or by an older version: a fixed-width layout without positions.
    await ctx.system((db) =>
      db
        .update(agreements)
        .set({ layout: { format: 'fixed', amountInCents: true } as never })
        .where(eq(agreements.id, created.id)),
    );
    const opened = await call('GET', `/api/agreements/${created.id}`);
    expect(opened.statusCode).toBe(200);
    const detail = opened.json<{ layout: unknown; version: number; warnings: { field: string; message: string }[] }>();
    expect(detail.layout).toBeNull();
    expect(detail.warnings).toContainEqual({
      field: 'layout',
      message: expect.stringContaining('layout de archivos de pagos guardado no es válido'),
    });
    // The list, which does not carry the layout, is unaffected.
    expect((await call('GET', '/api/agreements?q=SEP-VER')).json<{ items: unknown[] }>().items).toHaveLength(1);

    const saved = await call('PUT', `/api/agreements/${created.id}`, agreement({ version: detail.version }));
    expect(saved.statusCode).toBe(200);
    const fixed = saved.json<{ layout: unknown; warnings: { field: string }[] }>();
    expect(fixed.layout).toMatchObject({ format: 'csv', columns: { employeeNumber: 1, amount: 3 } });
    expect(fixed.warnings.map((warning) => warning.field)).not.toContain('layout');
  });

  it('tests a layout against an uploaded sample file', async () => {
    const boundary = 'limite123';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="layout"',
      '',
      JSON.stringify({ format: 'csv', delimiter: ',', hasHeader: true, columns: { employeeNumber: 1, amount: 2 } }),
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="muestra.csv"',
      'Content-Type: text/csv',
      '',
      'empleado,importe\n1001,1250.50\n,abc\n',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/agreements/layout-test',
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      totalRows: 2,
      errorRows: 1,
      rows: [
        { line: 2, fields: { employeeNumber: '1001', amount: '1250.50' }, errors: [] },
        { line: 3, errors: expect.arrayContaining(['Importe no válido: "abc".']) },
      ],
    });
  });

  it('answers 400 with the limit to an .xlsx that would expand to a 400 MB cell, without expanding it', async () => {
    const boundary = 'limite456';
    const body = Buffer.concat([
      Buffer.from(
        [
          `--${boundary}`,
          'Content-Disposition: form-data; name="layout"',
          '',
          JSON.stringify({ format: 'xlsx', hasHeader: false, columns: { creditId: 1, amount: 2 } }),
          `--${boundary}`,
          'Content-Disposition: form-data; name="file"; filename="bomba.xlsx"',
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          '',
          '',
        ].join('\r\n'),
      ),
      await xlsxBomb(400),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = process.resourceUsage().maxRSS;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/agreements/layout-test',
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      status: 400,
      title: 'Archivo fuera de los límites de lectura',
      detail: expect.stringContaining('El archivo descomprimido ocupa más de 50 MB, el máximo que se lee.'),
    });
    expect((process.resourceUsage().maxRSS - before) / 1024).toBeLessThan(150);
  });

  it('answers 401 without a token and 403 without the permission on every route of the module', async () => {
    const [jal] = (await call('GET', '/api/agreements?q=GOB-JAL')).json<{ items: { id: string }[] }>().items;
    const routes: ['GET' | 'POST' | 'PUT', string, unknown?][] = [
      ['GET', '/api/agreements'],
      ['GET', '/api/agreements/export.xlsx'],
      ['GET', `/api/agreements/${jal!.id}`],
      ['POST', '/api/agreements', agreement()],
      ['PUT', `/api/agreements/${jal!.id}`, { ...agreement(), version: 1 }],
      ['POST', `/api/agreements/${jal!.id}/status`, { active: false, version: 1 }],
      ['POST', '/api/agreements/layout-test', {}],
      ['GET', '/api/agreements/renewal-minimum'],
      ['PUT', '/api/agreements/renewal-minimum', { renewalMinimumNet: '100' }],
    ];
    const cartera = await ctx.as('cartera@demo.mx');
    for (const [method, url, payload] of routes) {
      expect((await ctx.app.inject({ method, url, payload: payload as Json })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, payload, cartera)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(ctx.app.registeredRoutes.filter((route) => route.url.startsWith('/api/agreements'))).toHaveLength(routes.length);
  });

  it('exports the list to xlsx', async () => {
    const response = await call('GET', '/api/agreements/export.xlsx?sort=code');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/convenios-\d{4}-\d{2}-\d{2}\.xlsx/);
    expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
