import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedDemoPortfolio } from '../seed/seed-portfolio';

/**
 * Dates PostgreSQL cannot hold, or the business cannot have, are a 400 naming the field on every route that takes a
 * date, never a 500, a cut export or a failed query shown to a clerk (issue 44). `0000-02-29` passes a calendar check
 * (year 0 is a multiple of 400) and PostgreSQL refuses year 0; `+010000-01-01` is ISO 8601's expanded year.
 */
const OUT_OF_RANGE = ['0000-01-01', '0000-02-29', '1899-12-31', '2101-01-01', '9999-12-31', '+010000-01-01', '-000001-01-01'];
const NOT_A_DAY = ['2024-02-30', '2023-02-29', '2024-13-01', '2024-1-01', '20240101', '2024-01-01T00:00:00Z', ' 2024-01-01'];

/** Each route with a date in its query, and the parameter. */
const QUERY_DATES: [string, string][] = [
  ['/api/requests', 'from'],
  ['/api/requests', 'to'],
  ['/api/credits', 'disbursedFrom'],
  ['/api/credits', 'disbursedTo'],
  ['/api/credits/totals', 'disbursedFrom'],
  ['/api/credits/export.xlsx', 'disbursedTo'],
  ['/api/payment-files', 'discountFrom'],
  ['/api/payment-files', 'discountTo'],
  ['/api/payments', 'from'],
  ['/api/payments/totals', 'to'],
  ['/api/payments/export.xlsx', 'from'],
];

const BOUNDARY = 'fecha-limite';

describe.each(ENGINES)('dates out of range (%s)', (engine) => {
  let ctx: TestContext;
  let admin: { authorization: string };
  let creditId: string;
  beforeAll(async () => {
    // The report run's queue is started, so that only the date can refuse the run.
    ctx = await createTestApp(engine, { jobs: true });
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 5);
    admin = await ctx.as('admin@demo.mx');
    const credits = (await ctx.app.inject({ url: '/api/credits?pageSize=1', headers: admin })).json<{ items: { id: string }[] }>();
    creditId = credits.items[0]!.id;
  });
  afterAll(() => ctx.close());

  const refusedNaming = (response: { statusCode: number; headers: Record<string, unknown>; body: string }, field: string) => {
    expect(response.statusCode, response.body).toBe(400);
    expect(String(response.headers['content-type'])).toContain('application/problem+json');
    const errors = (JSON.parse(response.body) as { errors?: { field: string; message: string }[] }).errors ?? [];
    expect(
      errors.map((error) => error.field),
      response.body,
    ).toContain(field);
    expect(response.body).not.toMatch(/select|declare|params|out of range/i);
  };

  it('refuses each list, total and export filter with a date outside 1900–2100 or not a day, naming the parameter', async () => {
    for (const [path, parameter] of QUERY_DATES) {
      for (const value of [...OUT_OF_RANGE, ...NOT_A_DAY]) {
        const url = `${path}?${parameter}=${encodeURIComponent(value)}`;
        const response = await ctx.app.inject({ url, headers: admin });
        refusedNaming(response, parameter);
      }
    }
  });

  it('still answers the ends of the range', async () => {
    for (const [path, parameter] of QUERY_DATES) {
      for (const value of ['1900-01-01', '2100-12-31']) {
        const response = await ctx.app.inject({ url: `${path}?${parameter}=${value}`, headers: admin });
        expect(response.statusCode, `${path} ${value}: ${response.body.slice(0, 200)}`).toBe(200);
      }
    }
  });

  it('refuses a payoff quote, a letter and a disbursement dated outside the range', async () => {
    for (const value of OUT_OF_RANGE) {
      refusedNaming(
        await ctx.app.inject({ url: `/api/credits/${creditId}/payoff?validUntil=${encodeURIComponent(value)}`, headers: admin }),
        'validUntil',
      );
      refusedNaming(
        await ctx.app.inject({ url: `/api/credits/${creditId}/settlement-quote?validUntil=${encodeURIComponent(value)}`, headers: admin }),
        'validUntil',
      );
      refusedNaming(
        await ctx.app.inject({
          method: 'POST',
          url: `/api/credits/${creditId}/settlement-letters`,
          headers: admin,
          payload: { validUntil: value },
        }),
        'validUntil',
      );
    }
  });

  it('refuses a payment file whose discount date is outside the range, before reading the file', async () => {
    const options = (await ctx.app.inject({ url: '/api/payment-files/upload-options', headers: admin })).json<{ agreementId: string }[]>();
    const agreementId = options[0]!.agreementId;
    for (const value of OUT_OF_RANGE) {
      const payload = [
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="agreementId"\r\n\r\n${agreementId}\r\n`,
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="discountDate"\r\n\r\n${value}\r\n`,
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="nomina.csv"\r\ncontent-type: text/csv\r\n\r\nempleado,curp,importe\r\n`,
        `--${BOUNDARY}--\r\n`,
      ].join('');
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/payment-files',
        headers: { ...admin, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload,
      });
      refusedNaming(response, 'discountDate');
    }
  });

  it('refuses a report run whose date filter is outside the range, instead of a run that fails with SQL', async () => {
    const profiles = (await ctx.app.inject({ url: '/api/report-definitions/profiles', headers: admin })).json<{ items: { id: string }[] }>()
      .items;
    const definition = await ctx.app.inject({
      method: 'POST',
      url: '/api/report-definitions',
      headers: admin,
      payload: {
        name: 'Cartera por fecha de dispersión',
        description: 'Fechas fuera de rango',
        dataset: 'cartera-al-dia',
        columns: ['folio', 'disbursementDate'],
        filters: [{ field: 'disbursementDate', type: 'dateRange' }],
        sort: null,
        format: 'csv',
        profileIds: [profiles[0]!.id],
      },
    });
    expect(definition.statusCode, definition.body).toBe(201);
    const definitionId = definition.json<{ id: string }>().id;
    for (const value of OUT_OF_RANGE) {
      for (const bound of ['from', 'to']) {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/report-runs',
          headers: admin,
          payload: { definitionId, parameters: { disbursementDate: { [bound]: value } } },
        });
        refusedNaming(response, `parameters.disbursementDate.${bound}`);
      }
    }
  });
});
