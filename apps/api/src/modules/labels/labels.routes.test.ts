import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Credit, CreditHistory, LabelUpdatePreview, LabelUpdateResult } from '@portal/contract';
import { APP_ROLE } from '../../db/client';
import { credits } from '../../db/schema/credits';
import { creditLabelEvents, labelJobs } from '../../db/schema/labels';
import { companies } from '../../db/schema/users';
import { BEHAVIOUR_ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { seedDemoPortfolio } from '../../seed/seed-portfolio';
import { creditFolio } from '../shared/folios';

type Headers = { authorization: string };
const BOUNDARY = '----label-file-test';

function form(file: { name: string; content: string | Buffer }): { payload: Buffer; headers: Record<string, string> } {
  const payload = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: text/csv\r\n\r\n`),
    Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
}

interface Unlabelled {
  id: string;
  folio: string;
}

describe.each(BEHAVIOUR_ENGINES)('Label updates API (%s)', (engine) => {
  let ctx: TestContext;
  let cartera: Headers;
  /** Credits without labels of the demo company (Cartera's) and of the other one. */
  let demo: Unlabelled[];
  let plus: Unlabelled[];

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true, seed: async (db, now) => seedDemoPortfolio(db, now, 40) });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.reset();
    cartera = await ctx.as('cartera@demo.mx');
    const unlabelled = (code: string) =>
      ctx.system(async (tx) => {
        const rows = await tx
          .select({ id: credits.id, number: credits.number })
          .from(credits)
          .innerJoin(companies, eq(companies.id, credits.companyId))
          .where(and(eq(companies.code, code), sql`cardinality(${credits.labels}) = 0`))
          .orderBy(asc(credits.number))
          .limit(4);
        return rows.map((row) => ({ id: row.id, folio: creditFolio(row.number) }));
      });
    demo = await unlabelled('DEMO');
    plus = await unlabelled('PLUS');
  });

  const post = async <T>(url: string, body: unknown, headers: Headers = cartera) => {
    const response = await ctx.app.inject({ method: 'POST', url, headers, payload: body as object });
    return { status: response.statusCode, body: response.json() as T };
  };
  const labelsOf = (id: string) =>
    ctx.system(async (tx) => (await tx.select({ labels: credits.labels }).from(credits).where(eq(credits.id, id)))[0]!.labels);
  const selection = (rows: [string, string, string][]) => ({
    source: 'selección',
    rows: rows.map(([folio, label, action], index) => ({ line: index + 1, folio, label, action })),
  });

  it('previews every row with its outcome and changes nothing', async () => {
    const [a, b] = demo;
    const [foreign] = plus;
    const preview = await post<LabelUpdatePreview>(
      '/api/label-updates/preview',
      selection([
        [a!.folio, 'cobranza', 'Agregar'],
        ['CR-99999999', 'Cobranza', 'agregar'],
        [foreign!.folio, 'Cobranza', 'agregar'],
        [b!.folio, 'Cobranza', 'quitar'],
        [b!.folio, 'Embargo', 'agregar'],
        [a!.folio, 'Cobranza', 'agregar'],
        ['abc', 'Cobranza', 'agregar'],
        [b!.folio, 'Jurídico', 'borrar'],
      ]),
    );
    expect(preview.status).toBe(200);
    expect(preview.body.rows.map((row) => [row.line, row.outcome])).toEqual([
      [1, 'aplicable'],
      [2, 'crédito no encontrado'],
      [3, 'crédito no encontrado'],
      [4, 'no tiene la etiqueta'],
      [5, 'etiqueta desconocida'],
      [6, 'duplicado'],
      [7, 'dato no válido'],
      [8, 'dato no válido'],
    ]);
    // The catalogue's spelling, and the other company's credit told apart from nothing: not at all.
    expect(preview.body.rows[0]).toMatchObject({ label: 'Cobranza', action: 'agregar', creditId: a!.id });
    expect(preview.body.rows[2]).toMatchObject({ creditId: null, clientName: null, company: null });
    expect(preview.body.rows[2]!.message).toBe(preview.body.rows[1]!.message!.replace('CR-99999999', foreign!.folio));
    expect(preview.body).toMatchObject({ applicable: 1, rejected: 7 });
    expect(await labelsOf(a!.id)).toEqual([]);
  });

  it('applies in one transaction and keeps each change in the credit history with who, when and the job', async () => {
    const [a, b] = demo;
    const [foreign] = plus;
    const applied = await post<LabelUpdateResult>(
      '/api/label-updates',
      selection([
        [a!.folio, 'Cobranza', 'agregar'],
        [a!.folio, 'Reestructura', 'agregar'],
        [b!.folio, 'Defunción', 'agregar'],
        [foreign!.folio, 'Cobranza', 'agregar'],
      ]),
    );
    expect(applied.status).toBe(201);
    expect(applied.body.job).toMatchObject({
      source: 'selección',
      rowsTotal: 4,
      applied: 3,
      createdBy: 'cartera@demo.mx',
      createdAt: ctx.clock.now().toISOString(),
    });
    expect(await labelsOf(a!.id)).toEqual(['Cobranza', 'Reestructura']);
    expect(await labelsOf(b!.id)).toEqual(['Defunción']);
    expect(await labelsOf(foreign!.id)).toEqual([]);

    // Remove one: the history keeps both changes, newest first, each naming its job.
    ctx.clock.advance(60_000);
    const removed = await post<LabelUpdateResult>('/api/label-updates', {
      source: 'archivo',
      fileName: 'quitar.csv',
      rows: [{ line: 2, folio: a!.folio, label: 'Cobranza', action: 'quitar' }],
    });
    expect(removed.status).toBe(201);
    const credit = (await ctx.app.inject({ method: 'GET', url: `/api/credits/${a!.id}`, headers: cartera })).json() as Credit;
    expect(credit.labels).toEqual(['Reestructura']);
    const history = (
      await ctx.app.inject({ method: 'GET', url: `/api/credits/${a!.id}/history`, headers: cartera })
    ).json() as CreditHistory;
    expect(
      history.labelHistory.map(({ label, action, actorEmail, occurredAt, jobId, source, fileName }) => ({
        label,
        action,
        actorEmail,
        occurredAt,
        jobId,
        source,
        fileName,
      })),
    ).toEqual([
      {
        label: 'Cobranza',
        action: 'quitar',
        actorEmail: 'cartera@demo.mx',
        occurredAt: ctx.clock.now().toISOString(),
        jobId: removed.body.job.id,
        source: 'archivo',
        fileName: 'quitar.csv',
      },
      {
        label: 'Reestructura',
        action: 'agregar',
        actorEmail: 'cartera@demo.mx',
        occurredAt: applied.body.job.createdAt,
        jobId: applied.body.job.id,
        source: 'selección',
        fileName: null,
      },
      {
        label: 'Cobranza',
        action: 'agregar',
        actorEmail: 'cartera@demo.mx',
        occurredAt: applied.body.job.createdAt,
        jobId: applied.body.job.id,
        source: 'selección',
        fileName: null,
      },
    ]);
    // The list filters by the current labels.
    const listed = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/credits?label=${encodeURIComponent('Reestructura')}&pageSize=100`,
        headers: cartera,
      })
    ).json() as { items: { id: string }[] };
    expect(listed.items.map((item) => item.id)).toContain(a!.id);

    // Nothing left to change is refused, and writes nothing.
    const again = await post('/api/label-updates', selection([[b!.folio, 'Defunción', 'agregar']]));
    expect(again.status).toBe(409);
    const jobs = await ctx.system((tx) => tx.select().from(labelJobs).where(eq(labelJobs.id, applied.body.job.id)));
    expect(jobs.map((job) => job.applied)).toEqual([3]);
  });

  it("keeps an administrator's update across companies as one job in each company, each seeing only its part", async () => {
    const admin = await ctx.as('admin@demo.mx');
    const [a] = demo;
    const [foreign] = plus;
    const applied = await post<LabelUpdateResult>(
      '/api/label-updates',
      selection([
        [a!.folio, 'Jurídico', 'agregar'],
        [foreign!.folio, 'Jurídico', 'agregar'],
      ]),
      admin,
    );
    expect(applied.status).toBe(201);
    expect(applied.body.job.applied).toBe(2);
    expect(await labelsOf(foreign!.id)).toEqual(['Jurídico']);
    const jobs = await ctx.system((tx) =>
      tx
        .select({ companyId: labelJobs.companyId, applied: labelJobs.applied })
        .from(labelJobs)
        .where(eq(labelJobs.id, applied.body.job.id)),
    );
    expect(jobs.map((job) => job.applied)).toEqual([1, 1]);
    const plusUser = await ctx.as('plus@demo.mx');
    const seen = (
      await ctx.app.inject({ method: 'GET', url: `/api/credits/${foreign!.id}/history`, headers: plusUser })
    ).json() as CreditHistory;
    expect(seen.labelHistory).toMatchObject([
      { label: 'Jurídico', action: 'agregar', actorEmail: 'admin@demo.mx', jobId: applied.body.job.id },
    ]);
  });

  /** Runs DDL as the tables' owner (the application's role is not), as db/scope.test.ts does. */
  async function asOwner(...statements: string[]): Promise<void> {
    if (engine === 'pglite') {
      await ctx.db.execute(sql`reset role`);
      try {
        for (const statement of statements) await ctx.db.execute(sql.raw(statement));
      } finally {
        await ctx.db.execute(sql.raw(`set role ${APP_ROLE}`));
      }
      return;
    }
    const { rows } = (await ctx.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    const url = new URL(inject('postgresAdminUrl'));
    url.pathname = `/${rows[0]!.name}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      for (const statement of statements) await admin.query(statement);
    } finally {
      await admin.end();
    }
  }

  it('leaves nothing behind when a write fails half way', async () => {
    const [a, b] = demo;
    const before = await ctx.system(async (tx) => ({
      events: (await tx.select().from(creditLabelEvents)).length,
      jobs: (await tx.select().from(labelJobs)).length,
    }));
    // The second change's history entry fails, after the credits and the job were written.
    await asOwner(
      `create function label_test_failure() returns trigger language plpgsql as $$ begin if new.line = 2 then raise exception 'falla de prueba'; end if; return new; end $$`,
      `create trigger label_test_failure before insert on credit_label_events for each row execute function label_test_failure()`,
    );
    try {
      const failed = await post(
        '/api/label-updates',
        selection([
          [a!.folio, 'Cobranza', 'agregar'],
          [b!.folio, 'Cobranza', 'agregar'],
        ]),
      );
      expect(failed.status).toBe(500);
    } finally {
      await asOwner('drop trigger label_test_failure on credit_label_events', 'drop function label_test_failure()');
    }
    expect(await labelsOf(a!.id)).toEqual([]);
    expect(await labelsOf(b!.id)).toEqual([]);
    const after = await ctx.system(async (tx) => ({
      events: (await tx.select().from(creditLabelEvents)).length,
      jobs: (await tx.select().from(labelJobs)).length,
    }));
    expect(after).toEqual(before);
  });

  it('reads a CSV with the columns in any order and reports bad files', async () => {
    const [a] = demo;
    const read = async (content: string | Buffer, name = 'etiquetas.csv') => {
      const body = form({ name, content });
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/label-updates/file',
        headers: { ...cartera, ...body.headers },
        payload: body.payload,
      });
      return { status: response.statusCode, body: response.json() };
    };
    const ok = await read(`Acción;Folio;ETIQUETA\r\nagregar;${a!.folio};Jurídico\r\n\r\nquitar;CR-1;Cobranza\r\n`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      fileName: 'etiquetas.csv',
      rows: [
        { line: 2, folio: a!.folio, label: 'Jurídico', action: 'agregar' },
        { line: 4, folio: 'CR-1', label: 'Cobranza', action: 'quitar' },
      ],
    });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Etiquetas');
    sheet.addRow(['Folio', 'Etiqueta', 'Accion']);
    sheet.addRow([a!.folio, 'Defunción', 'quitar']);
    const xlsx = await read(Buffer.from(await workbook.xlsx.writeBuffer()), 'etiquetas.xlsx');
    expect(xlsx.status).toBe(200);
    expect(xlsx.body.rows).toEqual([{ line: 2, folio: a!.folio, label: 'Defunción', action: 'quitar' }]);
    const missing = await read('folio,etiqueta\r\nCR-1,Cobranza\r\n');
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/falta acción/);
  });

  it('lets only holders of Actualizar Etiqueta preview, apply or read files; each company sees its own catalogue', async () => {
    const mesa = await ctx.as('mesa@demo.mx');
    const [a] = demo;
    const body = selection([[a!.folio, 'Cobranza', 'agregar']]);
    expect((await post('/api/label-updates/preview', body, mesa)).status).toBe(403);
    expect((await post('/api/label-updates', body, mesa)).status).toBe(403);
    expect(await labelsOf(a!.id)).toEqual([]);
    const catalogue = (headers: Headers) =>
      ctx.app
        .inject({ method: 'GET', url: '/api/labels', headers })
        .then((response) => response.json() as { items: { name: string; company: string }[] });
    const own = await catalogue(cartera);
    expect(own.items.map((label) => label.name).sort()).toEqual(['Cobranza', 'Defunción', 'Jurídico', 'Reestructura']);
    expect(new Set(own.items.map((label) => label.company)).size).toBe(1);
    expect((await catalogue(mesa)).items).toHaveLength(4);
  });

  it('seeds labelled credits through the same service, so their history exists', async () => {
    const listed = (await ctx.app.inject({ method: 'GET', url: '/api/credits?label=Jur%C3%ADdico', headers: cartera })).json() as {
      items: { id: string; labels: string[] }[];
    };
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]!.labels).toEqual(['Jurídico']);
    const history = (
      await ctx.app.inject({ method: 'GET', url: `/api/credits/${listed.items[0]!.id}/history`, headers: cartera })
    ).json() as CreditHistory;
    expect(history.labelHistory.map(({ label, action, source }) => [label, action, source])).toEqual([
      ['Jurídico', 'agregar', 'archivo'],
      ['Cobranza', 'quitar', 'archivo'],
      ['Cobranza', 'agregar', 'selección'],
    ]);
  });
});
