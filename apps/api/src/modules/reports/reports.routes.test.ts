import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { AGING_BUCKET_LABELS } from '@portal/lending';
import {
  REPORT_DATASET_KEYS,
  type CreditListItem,
  type ReportDefinitionDetail,
  type ReportRun,
  type RunnableReport,
} from '@portal/contract';
import { agreements } from '../../db/schema/agreements';
import { reportRunChunks, reportRuns } from '../../db/schema/reports';
import { companies, profiles } from '../../db/schema/users';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { purgeExpiredReports } from './reports.service';
import { until } from '../../test/until';

type Headers = { authorization: string };

/** A definition of the fields most of the tests use; `profileIds` filled in per test. */
const CARTERA_COLUMNS = [
  'folio',
  'client',
  'agreement',
  'disbursementDate',
  'principal',
  'outstandingBalance',
  'daysPastDue',
  'bucket',
  'status',
  'businessDate',
];

describe.each(BEHAVIOUR_ENGINES)('Reportes operativos API (%s)', (engine) => {
  let ctx: TestContext;
  let admin: Headers;
  let cartera: Headers;
  let plus: Headers;
  let profileId: Record<string, string>;
  let demoAgreement: { id: string; name: string };

  beforeAll(async () => {
    ctx = await createTestApp(engine, {
      jobs: true,
      snapshot: true,
      seed: async (db, now) => {
        await seedDemoPortfolio(db, now, 40);
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.reset();
    admin = await ctx.as('admin@demo.mx');
    cartera = await ctx.as('cartera@demo.mx');
    plus = await ctx.as('plus@demo.mx');
    const rows = await ctx.system((tx) => tx.select({ id: profiles.id, name: profiles.name }).from(profiles));
    profileId = Object.fromEntries(rows.map((row) => [row.name, row.id]));
    // Crédito Nómina Plus's operation may define and run reports here, so that only the company stands in its way.
    await ctx.system((tx) =>
      tx
        .update(profiles)
        .set({
          permissions: sql`${profiles.permissions} || array['/admon-wallet/reports-list', '/admon-wallet/reports-new', '/wallet/operative-report']::text[]`,
        })
        .where(eq(profiles.name, 'Operación')),
    );
    [demoAgreement] = (await ctx.system((tx) =>
      tx
        .select({ id: agreements.id, name: agreements.name })
        .from(agreements)
        .innerJoin(companies, eq(companies.id, agreements.companyId))
        .where(and(eq(companies.code, 'DEMO'), eq(agreements.code, 'GOB-JAL'))),
    )) as [{ id: string; name: string }];
  });

  const send = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: unknown) => {
    const response = await ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return {
      status: response.statusCode,
      body: (String(response.headers['content-type'] ?? '').includes('json') ? response.json() : response.rawPayload) as T,
      raw: response,
    };
  };
  const define = (body: Record<string, unknown>, headers: Headers = admin) =>
    send<ReportDefinitionDetail & { errors?: { field: string; message: string }[] }>('POST', '/api/report-definitions', headers, {
      name: 'Cartera de Jalisco',
      description: 'Prueba',
      dataset: 'cartera-al-dia',
      columns: CARTERA_COLUMNS,
      filters: [],
      sort: null,
      format: 'xlsx',
      profileIds: [profileId.Cartera],
      ...body,
    });
  /** Waits for the run's job to finish, reading it back as its requester does (the progress the screen shows). */
  const finished = async (run: ReportRun, headers: Headers) => {
    let current = run;
    await until(async () => {
      if (current.status !== 'en espera' && current.status !== 'en curso') return true;
      current = (await send<ReportRun>('GET', `/api/report-runs/${run.id}`, headers)).body;
      return false;
    });
    return current;
  };

  it('seeds one definition per dataset, runnable by Cartera, and one finished run in its history', async () => {
    const runnable = (await send<{ items: RunnableReport[] }>('GET', '/api/report-runs/runnable', cartera)).body.items;
    expect(new Set(runnable.map((item) => item.dataset))).toEqual(new Set(REPORT_DATASET_KEYS));
    const history = (await send<{ items: ReportRun[] }>('GET', '/api/report-runs', cartera)).body.items;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      definitionName: 'Cartera al día',
      status: 'completado',
      parameters: { status: { value: 'vigente' } },
    });
    const vigentes = (await send<{ total: number }>('GET', '/api/credits?status=vigente&pageSize=1', cartera)).body.total;
    expect(history[0]!.rowsDone).toBe(vigentes);
    expect((await send('GET', `/api/report-runs/${history[0]!.id}/file`, cartera)).status).toBe(200);
  });

  it('refuses a definition with an unknown field, a filter of the wrong type or no columns, each with its Spanish message', async () => {
    const unknown = await define({ columns: ['folio', 'saldoMagico'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'columns.1', message: 'El campo «saldoMagico» no existe en Cartera al día.' }]);

    const wrongType = await define({
      filters: [
        { field: 'folio', type: 'dateRange' },
        { field: 'bucket', type: 'status' },
        { field: 'disbursementDate', type: 'agreement' },
      ],
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors).toEqual([
      { field: 'filters.0.type', message: 'El campo «Folio» no admite filtros.' },
      { field: 'filters.1.type', message: 'El campo «Tramo de atraso» se filtra por tramo de atraso, no por estado.' },
      { field: 'filters.2.type', message: 'El campo «Fecha de dispersión» se filtra por rango de fechas, no por convenio.' },
    ]);
    // A bucket filter exists on the portfolio datasets only: a payment file has no aging bucket.
    const noBucket = await define({ dataset: 'archivos-pago', columns: ['fileName'], filters: [{ field: 'bucket', type: 'bucket' }] });
    expect(noBucket.body.errors).toEqual([{ field: 'filters.0.field', message: 'El campo «bucket» no existe en Archivos de pago.' }]);

    const empty = await define({ columns: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'columns', message: 'Elige al menos una columna.' }]);

    const noProfile = await define({ profileIds: [] });
    expect(noProfile.body.errors).toEqual([{ field: 'profileIds', message: 'Elige al menos un perfil que pueda ejecutarlo.' }]);
  });

  it('keeps versions and an audit trail: an edit on an old version is refused with 409', async () => {
    const created = await define({});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ version: 1, company: 'Financiera Demo', profiles: ['Cartera'], columns: CARTERA_COLUMNS });
    const { id } = created.body;
    const edited = await send<ReportDefinitionDetail>('PUT', `/api/report-definitions/${id}`, admin, {
      ...created.body,
      name: 'Cartera de Jalisco (quincenal)',
      columns: ['status', 'folio'],
      version: 1,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ version: 2, name: 'Cartera de Jalisco (quincenal)', columns: ['status', 'folio'] });
    expect(edited.body.history.map((entry) => entry.action)).toEqual(['report-definition.update', 'report-definition.create']);
    expect(edited.body.history[0]!.before).toMatchObject({ name: 'Cartera de Jalisco', columns: CARTERA_COLUMNS });
    const stale = await send<{ title: string }>('PUT', `/api/report-definitions/${id}`, admin, {
      ...created.body,
      name: 'Otra',
      version: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.title).toBe('El reporte cambió');
  });

  it("lets only the profiles it names see and run a definition, and hides another company's definition (404)", async () => {
    const onlyAdmin = await define({ name: 'Solo administración', profileIds: [profileId.Administrador] });
    const forCartera = await define({ name: 'Para cartera', profileIds: [profileId.Cartera, profileId.Administrador] });
    const runnable = (headers: Headers) =>
      send<{ items: RunnableReport[] }>('GET', '/api/report-runs/runnable', headers).then((answer) =>
        answer.body.items.map((item) => item.name),
      );

    expect(await runnable(cartera)).toContain('Para cartera');
    expect(await runnable(cartera)).not.toContain('Solo administración');
    expect(await runnable(admin)).toEqual(expect.arrayContaining(['Para cartera', 'Solo administración']));
    const refused = await send<{ title: string }>('POST', '/api/report-runs', cartera, { definitionId: onlyAdmin.body.id });
    expect([refused.status, refused.body.title]).toEqual([404, 'Reporte no encontrado']);
    // The administrator (role SA, whose transactions act across companies) queues its own run.
    const adminRun = await send<ReportRun>('POST', '/api/report-runs', admin, { definitionId: onlyAdmin.body.id });
    expect(adminRun.status).toBe(202);
    expect((await finished(adminRun.body, admin)).status).toBe('completado');
    // Cartera does not hold the Admon Cartera screens: it runs reports, it does not define them.
    expect((await send('GET', '/api/report-definitions', cartera)).status).toBe(403);

    // Crédito Nómina Plus, even with its profile named in the definition, neither reads, edits nor runs Financiera Demo's.
    const shared = await define({ name: 'Compartido', profileIds: [profileId.Operación!, profileId.Cartera] });
    expect((await send('GET', `/api/report-definitions/${shared.body.id}`, plus)).status).toBe(404);
    expect(
      (await send('PUT', `/api/report-definitions/${shared.body.id}`, plus, { ...shared.body, name: 'Ajeno', version: 1 })).status,
    ).toBe(404);
    expect((await send('POST', '/api/report-runs', plus, { definitionId: shared.body.id })).status).toBe(404);
    expect(await runnable(plus)).not.toContain('Compartido');
    const plusList = await send<{ items: { name: string }[] }>('GET', '/api/report-definitions?pageSize=100', plus);
    expect(plusList.body.items.map((item) => item.name)).not.toContain('Compartido');

    // Runs are their requester's: another user of the same company neither sees nor downloads one.
    const run = await send<ReportRun>('POST', '/api/report-runs', cartera, { definitionId: forCartera.body.id });
    expect(run.status).toBe(202);
    await finished(run.body, cartera);
    expect((await send('GET', `/api/report-runs/${run.body.id}`, admin)).status).toBe(404);
    expect((await send('GET', `/api/report-runs/${run.body.id}/file`, admin)).status).toBe(404);
    const adminRuns = await send<{ items: ReportRun[] }>('GET', '/api/report-runs', admin);
    expect(adminRuns.body.items.map((item) => item.id)).not.toContain(run.body.id);
  });

  it('writes an xlsx whose cells are typed and equal to the credits list, cell by cell, with header, frozen pane and auto filter', async () => {
    const definition = await define({
      filters: [
        { field: 'agreement', type: 'agreement' },
        { field: 'disbursementDate', type: 'dateRange' },
      ],
      sort: { field: 'folio', direction: 'asc' },
    });
    expect(definition.status).toBe(201);
    const bad = await send<{ errors: { field: string; message: string }[] }>('POST', '/api/report-runs', cartera, {
      definitionId: definition.body.id,
      parameters: { disbursementDate: { from: '2026-12-01', to: '2026-01-01' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'parameters.disbursementDate', message: '«Fecha de dispersión»: la fecha inicial es posterior a la final.' },
    ]);

    const started = await send<ReportRun>('POST', '/api/report-runs', cartera, {
      definitionId: definition.body.id,
      parameters: { agreement: { value: demoAgreement.id }, disbursementDate: { from: '', to: '' } },
    });
    expect(started.status).toBe(202);
    expect(started.body.parameters).toEqual({ agreement: { value: demoAgreement.id } });
    const run = await finished(started.body, cartera);
    expect(run.status).toBe('completado');

    // The expected rows come from another reader of the same credits: the Créditos list (credits.queries), and the
    // fecha flujo from Admin Fecha Flujo; the bucket's words from packages/lending.
    const list = await send<{ items: CreditListItem[]; total: number }>(
      'GET',
      `/api/credits?agreementId=${demoAgreement.id}&sort=folio&pageSize=100`,
      cartera,
    );
    const credits = list.body.items;
    expect(credits.length).toBeGreaterThan(3);
    const [businessDate] = (await send<{ businessDate: string }[]>('GET', '/api/flow-date/business-dates', cartera)).body;
    expect([run.rowsTotal, run.rowsDone]).toEqual([credits.length, credits.length]);

    const file = await send<Buffer>('GET', `/api/report-runs/${run.id}/file`, cartera);
    expect(file.status).toBe(200);
    expect(file.raw.headers['content-disposition']).toBe(`attachment; filename="${run.fileName}"`);
    expect(file.raw.rawPayload.length).toBe(run.size);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.raw.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Cartera al día');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Folio',
      'Acreditado',
      'Convenio',
      'Fecha de dispersión',
      'Capital dispersado',
      'Saldo total',
      'Días de atraso',
      'Tramo de atraso',
      'Estado',
      'Fecha flujo',
    ]);
    expect(Array.from({ length: 10 }, (_, column) => sheet.getRow(1).getCell(column + 1).font?.bold)).toEqual(Array(10).fill(true));
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:J1');
    expect(sheet.rowCount).toBe(credits.length + 1);
    const utcDate = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
    credits.forEach((credit, index) => {
      const row = sheet.getRow(index + 2);
      const cells = Array.from({ length: 10 }, (_, column) => row.getCell(column + 1).value);
      expect(cells).toEqual([
        credit.folio,
        credit.clientName,
        demoAgreement.name,
        utcDate(credit.disbursementDate),
        Number(credit.principal),
        Number(credit.outstandingBalance),
        credit.daysPastDue,
        AGING_BUCKET_LABELS[credit.bucket],
        credit.status,
        utcDate(businessDate!.businessDate),
      ]);
      expect(row.getCell(4).numFmt).toBe('dd/mm/yyyy');
      expect(row.getCell(5).numFmt).toBe('"$"#,##0.00');
      expect(row.getCell(6).numFmt).toBe('"$"#,##0.00');
      expect(row.getCell(6).type).toBe(ExcelJS.ValueType.Number);
      expect(row.getCell(4).type).toBe(ExcelJS.ValueType.Date);
    });

    const history = await send<{ items: ReportRun[]; total: number }>('GET', '/api/report-runs', cartera);
    expect(history.body.items[0]).toMatchObject({
      id: run.id,
      status: 'completado',
      requestedBy: 'Demo Cartera',
      definitionName: 'Cartera de Jalisco',
      format: 'xlsx',
    });
    expect(history.body.items[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('writes csv as UTF-8 with a BOM, quoted where needed, and refuses bad parameters', async () => {
    const definition = await define({
      name: 'Tránsito por convenio',
      dataset: 'cartera-vencida',
      columns: ['folio', 'client', 'bucket', 'daysPastDue', 'overdueBalance'],
      filters: [{ field: 'bucket', type: 'bucket' }],
      sort: { field: 'daysPastDue', direction: 'desc' },
      format: 'csv',
    });
    expect(definition.status).toBe(201);
    const badBucket = await send<{ errors: { field: string; message: string }[] }>('POST', '/api/report-runs', cartera, {
      definitionId: definition.body.id,
      parameters: { bucket: { value: '120+' } },
    });
    expect(badBucket.status).toBe(400);
    expect(badBucket.body.errors[0]!.message).toBe('«Tramo de atraso»: «120+» no es un valor válido (current, 1-30, 31-60, 61-89, 90+).');
    const unknown = await send('POST', '/api/report-runs', cartera, {
      definitionId: definition.body.id,
      parameters: { status: { value: 'vigente' } },
    });
    expect(unknown.status).toBe(400);

    const started = await send<ReportRun>('POST', '/api/report-runs', cartera, { definitionId: definition.body.id });
    const run = await finished(started.body, cartera);
    expect(run.status).toBe('completado');
    const file = await send<Buffer>('GET', `/api/report-runs/${run.id}/file`, cartera);
    const bytes = file.raw.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Folio,Acreditado,Tramo de atraso,Días de atraso,Saldo vencido');
    expect(lines.at(-1)).toBe('');
    // Independently: the company's overdue credits as the Créditos list shows them, most days past due first.
    const overdue = (
      await send<{ items: CreditListItem[] }>('GET', '/api/credits?sort=-daysPastDue&pageSize=100', cartera)
    ).body.items.filter((credit) => credit.daysPastDue > 0 && credit.status !== 'liquidado');
    expect(lines.length - 2).toBe(overdue.length);
    const expectedFirst = overdue
      .filter((credit) => credit.daysPastDue === overdue[0]!.daysPastDue)
      .sort((a, b) => a.folio.localeCompare(b.folio))[0]!;
    const [folio, client, bucketText, days] = lines[1]!.split(',');
    expect([folio, client, bucketText, Number(days)]).toEqual([
      expectedFirst.folio,
      expectedFirst.clientName,
      AGING_BUCKET_LABELS[expectedFirst.bucket],
      expectedFirst.daysPastDue,
    ]);
  });

  it('deletes a file past its retention, shows the run vencido and refuses its download', async () => {
    const definition = await define({ format: 'csv', columns: ['folio'] });
    const run = await finished(
      (await send<ReportRun>('POST', '/api/report-runs', cartera, { definitionId: definition.body.id })).body,
      cartera,
    );
    expect(run.status).toBe('completado');
    expect(new Date(run.expiresAt!).getTime() - new Date(run.finishedAt!).getTime()).toBe(7 * 86_400_000);
    ctx.clock.advance(8 * 86_400_000);
    expect((await send('GET', `/api/report-runs/${run.id}/file`, cartera)).status).toBe(410);
    // The seed's own run expires with it.
    expect(await purgeExpiredReports(ctx.db, ctx.clock.now())).toBe(2);
    const chunks = await ctx.system((tx) =>
      tx.select({ seq: reportRunChunks.seq }).from(reportRunChunks).where(eq(reportRunChunks.runId, run.id)),
    );
    expect(chunks).toEqual([]);
    const [stored] = await ctx.system((tx) => tx.select({ status: reportRuns.status }).from(reportRuns).where(eq(reportRuns.id, run.id)));
    expect(stored!.status).toBe('vencido');
    expect((await send<ReportRun>('GET', `/api/report-runs/${run.id}`, cartera)).body.status).toBe('vencido');
  });
});
