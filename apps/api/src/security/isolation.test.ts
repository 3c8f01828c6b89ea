import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curpCheckDigit } from '@portal/lending';
import { ALL_PERMISSION_PATHS, REQUEST_ACTIONS, type RequestAction, type RequestStatus } from '@portal/contract';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import type { Tx } from '../db/client';
import { seedDemoPortfolio } from '../seed/seed-portfolio';
import { mexicoToday } from '../modules/shared/business-date';
import { agreementProducts, agreements } from '../db/schema/agreements';
import { auditEvents, outbox } from '../db/schema/audit';
import { credits } from '../db/schema/credits';
import { deductionOrders } from '../db/schema/deduction-orders';
import { dayCloseRuns } from '../db/schema/portfolio';
import { paymentFiles } from '../db/schema/payments';
import { paymentBatches, refunds } from '../db/schema/treasury';
import { settlementLetters } from '../db/schema/letters';
import { reportDefinitions, reportRunChunks, reportRuns } from '../db/schema/reports';
import { clients, preRequests, requestDocuments, requests } from '../db/schema/origination';
import { companies, profiles, users } from '../db/schema/users';

/**
 * Company isolation, route by route: every route of the server with an `:id` is called by users of one company with
 * the id of the other company's row, and must answer 403 or 404 and leave the row as it was. The routes come from the
 * server's own list, so a new module's routes are covered (or fail for want of a fixture) without editing this file's
 * list of routes.
 */

type Company = 'DEMO' | 'PLUS';
type Headers = { authorization: string };
type Json = Record<string, unknown>;
type Route = { method: string; url: string };

const other = (company: Company): Company => (company === 'DEMO' ? 'PLUS' : 'DEMO');

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function multipartFile(field: string, fileName: string, content: Buffer) {
  const form = new FormData();
  form.append(field, new Blob([content]), fileName);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

/** Values for route parameters other than `:id`. */
const OTHER_PARAMS: Record<string, string> = { kind: 'ine' };

/** A company's rows that the other company's users aim at: one per kind of `:id`. */
interface Targets {
  users: string;
  profiles: string;
  agreements: string;
  'pre-requests': string;
  requests: string;
  credits: string;
  /** A day close run (Admin Fecha Flujo's progress). */
  'flow-date': string;
  /** An employer's payment file, validated and not applied. */
  'payment-files': string;
  /** A settlement letter (the seed issues some in each company). */
  'settlement-letters': string;
  /** A report definition, runnable by the company's all-permissions user. */
  'report-definitions': string;
  /** A finished report run of that user, with its file. */
  'report-runs': string;
  /** An emitted cédula de descuentos of a payday whose cut-off has passed (issue and substitute are refused as such). */
  'deduction-orders': string;
  /** A payment batch por autorizar (Tesorería). */
  'payment-batches': string;
  /** A refund of saldo a favor, solicitada and not yet decided. */
  refunds: string;
}

describe.each(ENGINES)('Company isolation (%s)', (engine) => {
  let ctx: TestContext;
  let companyId: Record<Company, string>;
  let targets: Record<Company, Targets>;
  let agreementIds: Record<Company, string[]>;
  /** Who attacks a company's rows: users of the other company, with the demo's profile and with every permission (not SA). */
  let attackers: Record<Company, { email: string; headers: Headers }[]>;
  /** A user of the company itself holding every permission (not SA): the same call must reach the row (a control). */
  let owner: Record<Company, Headers>;
  let admin: Headers;
  let plus: Headers;
  let today: string;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 24);
    today = mexicoToday(ctx.clock.now());

    await ctx.system(async (db) => {
      const rows = await db.select().from(companies);
      companyId = { DEMO: rows.find((row) => row.code === 'DEMO')!.id, PLUS: rows.find((row) => row.code === 'PLUS')!.id };
      const [everything] = await db
        .insert(profiles)
        .values({ name: 'Todo sin SA', roleCode: 'OPERACION_TOTAL', permissions: [...ALL_PERMISSION_PATHS] })
        .returning();
      const [none] = await db.select().from(profiles).where(eq(profiles.name, 'Sin permisos'));
      // Each company's own profile (the rest are the common catalogue's, which only SA changes): the targets below.
      await db.update(profiles).set({ companyId: companyId.DEMO }).where(eq(profiles.name, 'Originación'));
      await db.update(profiles).set({ companyId: companyId.PLUS }).where(eq(profiles.name, 'Operación'));
      await db.insert(users).values([
        { email: 'todo@demo.mx', name: 'Todo Demo', profileId: everything!.id, companyId: companyId.DEMO },
        { email: 'todo@plus.mx', name: 'Todo Plus', profileId: everything!.id, companyId: companyId.PLUS },
        { email: 'objetivo@demo.mx', name: 'Objetivo Demo', profileId: none!.id, companyId: companyId.DEMO },
        { email: 'objetivo@plus.mx', name: 'Objetivo Plus', profileId: none!.id, companyId: companyId.PLUS },
      ]);
    });

    // A draft pre-request of each company, captured by its own user (the demo seed may leave a company without one).
    const loans = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id, code: agreements.code })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(inArray(agreements.code, ['GOB-JAL', 'ACME-PRIV'])),
    );
    for (const [company, code, first17] of [
      ['DEMO', 'GOB-JAL', 'GOMA800101MJCMRR0'],
      ['PLUS', 'ACME-PRIV', 'LOPJ750315HNLPRN0'],
    ] as const) {
      const loan = loans.find((row) => row.code === code)!;
      const draft = await ctx.app.inject({
        method: 'POST',
        url: '/api/pre-requests',
        headers: await ctx.as(company === 'DEMO' ? 'todo@demo.mx' : 'todo@plus.mx'),
        payload: {
          curp: `${first17}${curpCheckDigit(first17)}`,
          rfc: '',
          firstNames: 'Prueba',
          lastName1: 'Aislamiento',
          lastName2: 'Empresa',
          agreementId: loan.agreementId,
          productId: loan.productId,
          employeeNumber: 'A-1',
          netSalary: '30000',
          otherDeductions: '0',
          amount: '6000',
          term: 12,
        },
      });
      expect(draft.statusCode, draft.body).toBe(201);
    }

    const pick = async (company: Company): Promise<Targets> =>
      ctx.system(async (db) => {
        const id = companyId[company];
        const [user] = await db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.email, company === 'DEMO' ? 'objetivo@demo.mx' : 'objetivo@plus.mx'));
        // The company's own profile, held by its users only: Originación (DEMO) and Operación (PLUS).
        const [profile] = await db
          .select({ id: profiles.id })
          .from(profiles)
          .where(eq(profiles.name, company === 'DEMO' ? 'Originación' : 'Operación'));
        const [agreement] = await db
          .select({ id: agreements.id })
          .from(agreements)
          .where(eq(agreements.code, company === 'DEMO' ? 'GOB-JAL' : 'ACME-PRIV'));
        const [preRequest] = await db.select({ id: preRequests.id }).from(preRequests).where(eq(preRequests.companyId, id)).limit(1);
        // Not disbursed: every status action can be tried on it.
        const [request] = await db
          .select({ id: requests.id })
          .from(requests)
          .where(sql`${requests.companyId} = ${id} and ${requests.status} <> 'dispersada'`)
          .limit(1);
        const [credit] = await db.select({ id: credits.id }).from(credits).where(eq(credits.companyId, id)).limit(1);
        const [run] = await db
          .insert(dayCloseRuns)
          .values({
            companyId: id,
            fromDate: today,
            throughDate: today,
            daysTotal: 1,
            daysDone: 1,
            status: 'completado',
            finishedAt: ctx.clock.now(),
          })
          .returning({ id: dayCloseRuns.id });
        const content = Buffer.from(`empleado,curp,importe\r\nA-1,${company},100.00\r\n`);
        const [file] = await db
          .insert(paymentFiles)
          .values({
            companyId: id,
            agreementId: agreement!.id,
            discountDate: today,
            fileName: `aislamiento-${company}.csv`,
            contentType: 'text/csv',
            size: content.length,
            sha256: createHash('sha256').update(content).digest('hex'),
            content,
            encoding: 'utf-8',
            layout: {},
            status: 'validado',
          })
          .returning({ id: paymentFiles.id });
        // The demo seed emits the cédulas its payment files answer; a company without one gets one here.
        const [seededOrder] = await db
          .select({ id: deductionOrders.id })
          .from(deductionOrders)
          .where(eq(deductionOrders.companyId, id))
          .limit(1);
        const [order] = seededOrder
          ? [seededOrder]
          : await db
              .insert(deductionOrders)
              .values({
                companyId: id,
                agreementId: agreement!.id,
                payday: '2026-11-15',
                cutOffDate: '2026-11-10',
                businessDate: today,
                status: 'emitida',
                generatedAt: ctx.clock.now(),
                issuedAt: ctx.clock.now(),
              })
              .returning({ id: deductionOrders.id });
        const [batch] = await db
          .insert(paymentBatches)
          .values({ companyId: id, sourceAccount: '002010077777777771', orderCount: 0, total: '0', generatedAt: ctx.clock.now() })
          .returning({ id: paymentBatches.id });
        const [refund] = await db
          .insert(refunds)
          .values({
            companyId: id,
            creditId: credit!.id,
            amount: '1.00',
            clabe: '002010077777777771',
            clabeSource: 'expediente',
            requestedAt: ctx.clock.now(),
          })
          .returning({ id: refunds.id });
        const [letter] = await db
          .select({ id: settlementLetters.id })
          .from(settlementLetters)
          .where(eq(settlementLetters.companyId, id))
          .limit(1);
        const [everyone] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.name, 'Todo sin SA'));
        const [definition] = await db
          .insert(reportDefinitions)
          .values({
            companyId: id,
            name: `Aislamiento ${company}`,
            dataset: 'cartera-al-dia',
            columns: ['folio'],
            filters: [],
            format: 'csv',
            profileIds: [everyone!.id],
          })
          .returning();
        const [owner] = await db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.email, company === 'DEMO' ? 'todo@demo.mx' : 'todo@plus.mx'));
        const csv = Buffer.from('\uFEFFFolio\r\n', 'utf8');
        const [reportRun] = await db
          .insert(reportRuns)
          .values({
            companyId: id,
            definitionId: definition!.id,
            definitionVersion: 1,
            definition: { name: definition!.name, dataset: 'cartera-al-dia', columns: ['folio'], filters: [], sort: null, format: 'csv' },
            parameters: {},
            status: 'completado',
            rowsTotal: 0,
            rowsDone: 0,
            fileName: 'aislamiento.csv',
            contentType: 'text/csv; charset=utf-8',
            size: csv.length,
            requestedBy: owner!.id,
            finishedAt: ctx.clock.now(),
            expiresAt: new Date(ctx.clock.now().getTime() + 86_400_000),
          })
          .returning({ id: reportRuns.id });
        await db.insert(reportRunChunks).values({ runId: reportRun!.id, seq: 0, companyId: id, data: csv });
        const found = {
          users: user?.id,
          profiles: profile?.id,
          agreements: agreement?.id,
          'pre-requests': preRequest?.id,
          requests: request?.id,
          credits: credit?.id,
          'flow-date': run?.id,
          'payment-files': file?.id,
          'settlement-letters': letter?.id,
          'report-definitions': definition?.id,
          'report-runs': reportRun?.id,
          'deduction-orders': order?.id,
          'payment-batches': batch?.id,
          refunds: refund?.id,
        };
        for (const [kind, value] of Object.entries(found)) expect(value, `${company} has no ${kind} to aim at`).toBeTruthy();
        return found as Targets;
      });
    targets = { DEMO: await pick('DEMO'), PLUS: await pick('PLUS') };
    agreementIds = await ctx.system(async (db) => {
      const rows = await db.select({ id: agreements.id, companyId: agreements.companyId }).from(agreements);
      return {
        DEMO: rows.filter((row) => row.companyId === companyId.DEMO).map((row) => row.id),
        PLUS: rows.filter((row) => row.companyId === companyId.PLUS).map((row) => row.id),
      };
    });

    admin = await ctx.as('admin@demo.mx');
    plus = await ctx.as('plus@demo.mx');
    attackers = {
      DEMO: [
        { email: 'plus@demo.mx', headers: plus },
        { email: 'todo@plus.mx', headers: await ctx.as('todo@plus.mx') },
      ],
      PLUS: [
        { email: 'originacion@demo.mx', headers: await ctx.as('originacion@demo.mx') },
        { email: 'todo@demo.mx', headers: await ctx.as('todo@demo.mx') },
      ],
    };
    owner = { DEMO: await ctx.as('todo@demo.mx'), PLUS: await ctx.as('todo@plus.mx') };
  });
  afterAll(() => ctx?.close());

  /** The route's module: the segment after /api/ ("users", "requests", ...). */
  const moduleOf = (url: string) => url.split('/')[2]!;

  /** What the row of a target is, with what hangs on it, as the system sees it. */
  const snapshot = (kind: keyof Targets, id: string) =>
    ctx.system(async (db: Tx) => {
      const row = await (async () => {
        switch (kind) {
          case 'users':
            return db.select().from(users).where(eq(users.id, id));
          case 'profiles':
            return db.select().from(profiles).where(eq(profiles.id, id));
          case 'agreements':
            return db.select().from(agreements).where(eq(agreements.id, id));
          case 'pre-requests':
            return db.select().from(preRequests).where(eq(preRequests.id, id));
          case 'requests':
            return db.select().from(requests).where(eq(requests.id, id));
          case 'credits':
            return db.select().from(credits).where(eq(credits.id, id));
          case 'flow-date':
            return db.select().from(dayCloseRuns).where(eq(dayCloseRuns.id, id));
          case 'payment-files':
            return db.select().from(paymentFiles).where(eq(paymentFiles.id, id));
          case 'settlement-letters':
            return db.select().from(settlementLetters).where(eq(settlementLetters.id, id));
          case 'report-definitions':
            return db.select().from(reportDefinitions).where(eq(reportDefinitions.id, id));
          case 'report-runs':
            return db.select().from(reportRuns).where(eq(reportRuns.id, id));
          case 'deduction-orders':
            return db.select().from(deductionOrders).where(eq(deductionOrders.id, id));
          case 'payment-batches':
            return db.select().from(paymentBatches).where(eq(paymentBatches.id, id));
          case 'refunds':
            return db.select().from(refunds).where(eq(refunds.id, id));
        }
      })();
      const products = kind === 'agreements' ? await db.select().from(agreementProducts).where(eq(agreementProducts.agreementId, id)) : [];
      const documents =
        kind === 'requests'
          ? await db
              .select({ kind: requestDocuments.kind, sha256: requestDocuments.sha256, uploadedAt: requestDocuments.uploadedAt })
              .from(requestDocuments)
              .where(eq(requestDocuments.requestId, id))
          : [];
      const madeCredits = kind === 'requests' ? await db.select({ total: count() }).from(credits).where(eq(credits.requestId, id)) : [];
      const [audit] = await db.select({ total: count() }).from(auditEvents).where(eq(auditEvents.entityId, id));
      const [mail] = await db.select({ total: count() }).from(outbox);
      return { row, products, documents, madeCredits, audit: audit!.total, mail: mail!.total };
    });

  /** Puts the target where the route's action starts from, so that only the company stands in the way. */
  async function prepare(route: Route, kind: keyof Targets, id: string): Promise<void> {
    await ctx.system(async (db) => {
      if (kind === 'users') await db.update(users).set({ active: true }).where(eq(users.id, id));
      if (kind === 'agreements') await db.update(agreements).set({ active: true }).where(eq(agreements.id, id));
      if (kind === 'report-definitions') await db.update(reportDefinitions).set({ active: true }).where(eq(reportDefinitions.id, id));
      if (kind === 'payment-files')
        await db.update(paymentFiles).set({ status: 'validado', statusReason: null }).where(eq(paymentFiles.id, id));
      if (kind === 'deduction-orders')
        await db
          .update(deductionOrders)
          .set({ status: 'emitida', sentOn: null, sentChannel: null, sentNote: null, sentBy: null, sentAt: null })
          .where(eq(deductionOrders.id, id));
      if (kind === 'payment-batches')
        await db
          .update(paymentBatches)
          .set({ status: 'por autorizar', authorizedBy: null, authorizedAt: null })
          .where(eq(paymentBatches.id, id));
      if (kind === 'refunds')
        await db
          .update(refunds)
          .set({ status: 'solicitada', declineReason: null, decidedBy: null, decidedAt: null })
          .where(eq(refunds.id, id));
      if (kind === 'pre-requests') await db.update(preRequests).set({ status: 'borrador', sentAt: null }).where(eq(preRequests.id, id));
      if (kind === 'requests') {
        const action = route.url.split('/').at(-1) as RequestAction;
        const status: RequestStatus = action in REQUEST_ACTIONS ? REQUEST_ACTIONS[action].from[0]! : 'capturada';
        // Nobody has touched its capture since the seed: the company's own user may decide it (a control call that
        // edited it before would otherwise be refused by the two-person rule, requests.routes.test.ts's subject).
        await db
          .update(requests)
          .set({ status, decidedAt: status === 'aprobada' ? ctx.clock.now() : null, decidedBy: null, capturedBy: [] })
          .where(eq(requests.id, id));
      }
    });
  }

  /** A body that would do the route's work on that row: the row as the SA reads it, with a change. */
  async function bodyFor(route: Route, kind: keyof Targets, id: string): Promise<Json | undefined> {
    if (route.method === 'GET' || route.method === 'DELETE') return undefined;
    if (kind === 'refunds') return { decision: 'declinar', reason: 'Intento desde otra empresa.' };
    if (kind === 'payment-batches')
      return route.url.endsWith('/results') ? { lines: [{ trackingKey: 'T1', result: 'liquidada' }] } : undefined;
    // Profiles have no detail route: the system reads the row.
    const current: Json =
      kind === 'profiles'
        ? (await ctx.system((db) => db.select().from(profiles).where(eq(profiles.id, id))))[0]!
        : (await ctx.app.inject({ method: 'GET', url: `/api/${kind}/${id}`, headers: admin })).json<Json>();
    const version = current.version as number;
    const last = route.url.split('/').at(-1)!;
    if (last === 'status') return { active: false, version };
    if (kind === 'deduction-orders') return last === 'send' ? { sentOn: today, channel: 'correo', note: 'Desde otra empresa' } : undefined;
    if (last === 'send') return { version };
    if (last in REQUEST_ACTIONS) return { version, reason: 'Intento desde otra empresa.', disbursementDate: today };
    if (kind === 'users') return { ...current, name: 'Cambiado desde otra empresa', active: false, version };
    if (kind === 'profiles') return { name: current.name, roleCode: current.roleCode, permissions: current.permissions, version };
    if (kind === 'agreements') return { ...current, name: 'Cambiado desde otra empresa', version };
    if (kind === 'pre-requests') return { ...current, amount: '5000', version };
    if (kind === 'requests') return { ...current, street: 'Calle de otra empresa', version };
    if (kind === 'report-definitions') return { ...current, name: 'Cambiado desde otra empresa', version };
    return { version, active: false, reason: 'Intento desde otra empresa.', disbursementDate: today };
  }

  async function call(route: Route, url: string, body: Json | undefined, headers: Headers) {
    if (route.url.includes('/documents/') && route.method === 'PUT') {
      const form = await multipartFile('file', 'ine.pdf', PDF);
      return ctx.app.inject({ method: 'PUT', url, payload: form.payload, headers: { ...headers, 'content-type': form.contentType } });
    }
    return ctx.app.inject({ method: route.method as 'GET', url, ...(body ? { payload: body } : {}), headers });
  }

  it("refuses, with 403 or 404 and no change, every :id route called with the other company's row", async () => {
    const routes = ctx.app.registeredRoutes.filter((route) => route.url.includes(':id'));
    expect(routes.length).toBeGreaterThan(15);
    const kinds = Object.keys(targets.DEMO);
    const uncovered = routes.filter((route) => !kinds.includes(moduleOf(route.url))).map((route) => `${route.method} ${route.url}`);
    expect(uncovered, 'every :id route needs a fixture of each company (add it to Targets)').toEqual([]);

    const failures: string[] = [];
    for (const route of routes) {
      const kind = moduleOf(route.url) as keyof Targets;
      for (const victim of ['DEMO', 'PLUS'] as const) {
        const id = targets[victim][kind];
        const url = route.url.replace(/:(\w+)/g, (_, name: string) =>
          name === 'id' ? id : (OTHER_PARAMS[name] ?? expect.fail(`no value for :${name} in ${route.url}`)),
        );
        await prepare(route, kind, id);
        const body = await bodyFor(route, kind, id);
        const before = await snapshot(kind, id);
        for (const attacker of attackers[victim]) {
          const response = await call(route, url, body, attacker.headers);
          if (![403, 404].includes(response.statusCode)) {
            failures.push(
              `${route.method} ${url} as ${attacker.email} (${other(victim)}) on ${victim}'s ${kind}: ${response.statusCode} ${response.body.slice(0, 300)}`,
            );
          }
        }
        const after = await snapshot(kind, id);
        if (JSON.stringify(after) !== JSON.stringify(before)) failures.push(`${route.method} ${url}: ${victim}'s ${kind} row changed`);
        expect(after, `${route.method} ${url}: ${victim}'s ${kind} must be unchanged`).toEqual(before);

        // The control: the same call by a user of the row's own company reaches the row (the refusal above was the company's).
        const own = await call(route, url, body, owner[victim]);
        if ([403, 404].includes(own.statusCode) || own.statusCode >= 500) {
          failures.push(`control ${route.method} ${url} as ${victim}'s own user: ${own.statusCode} ${own.body.slice(0, 300)}`);
        }
        // Back to the usual state (an agreement or user the control deactivated), for the tests that follow.
        await prepare(route, kind, id);
      }
    }
    expect(failures).toEqual([]);
  });

  const list = <T>(url: string, headers: Headers) =>
    ctx.app.inject({ method: 'GET', url, headers }).then((response) => {
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
      return response.json<T>();
    });

  it("lists only the user's company rows, and both companies for role SA", async () => {
    // Messages of both companies, to addresses that are nobody's (visible to whoever reads the outbox).
    await ctx.system((db) =>
      db.insert(outbox).values([
        { companyId: companyId.DEMO, toEmail: 'aviso@demo.example.mx', subject: 'DEMO', body: 'DEMO' },
        { companyId: companyId.PLUS, toEmail: 'aviso@plus.example.mx', subject: 'PLUS', body: 'PLUS' },
      ]),
    );
    // /api/pre-requests lists one's own: each of these users captures one on each agreement it may use.
    const [jal, acme] = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id, code: agreements.code })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(inArray(agreements.code, ['GOB-JAL', 'ACME-PRIV']))
        .orderBy(sql`${agreements.code} desc`),
    );
    const capture = (loan: { agreementId: string; productId: string }, curp: string) => ({
      curp,
      rfc: '',
      firstNames: 'Enrique',
      lastName1: 'Peña',
      lastName2: 'Nieto',
      agreementId: loan.agreementId,
      productId: loan.productId,
      employeeNumber: 'E-1',
      netSalary: '30000',
      otherDeductions: '0',
      amount: '6000',
      term: 12,
    });
    for (const [headers, loan, curp] of [
      [admin, jal!, 'PXNE660720HMCXTN06'],
      [admin, acme!, 'PXNE660720HMCXTN06'],
      [plus, acme!, 'PXNE660720HMCXTN06'],
    ] as const) {
      const created = await ctx.app.inject({ method: 'POST', url: '/api/pre-requests', payload: capture(loan, curp), headers });
      expect(created.statusCode, created.body).toBe(201);
    }

    const idsOf = (company: Company) => new Set([companyId[company]]);
    const companyOfAgreement = (id: string): Company | 'ninguna' =>
      agreementIds.DEMO.includes(id) ? 'DEMO' : agreementIds.PLUS.includes(id) ? 'PLUS' : 'ninguna';

    type Page<T> = { items: T[]; total: number };
    // The outbox's links take /user/user-new, which Operación lacks: its company's administrator reads it.
    const seen = async (headers: Headers, outboxReader = headers) => {
      const requestsPage = await list<Page<{ agreementId: string }>>('/api/requests?pageSize=100', headers);
      const preRequestsPage = await list<Page<{ agreementId: string }>>('/api/pre-requests?pageSize=100', headers);
      const usersPage = await list<Page<{ companyId: string }>>('/api/users?pageSize=100', headers);
      const agreementsPage = await list<Page<{ companyId: string }>>('/api/agreements?pageSize=100', headers);
      const outboxPage = await list<Page<{ toEmail: string }>>('/api/outbox?pageSize=100', outboxReader);
      const companiesList = await list<{ items: { id: string }[] }>('/api/companies', headers);
      const catalog = await list<{ agreements: { id: string }[] }>('/api/pre-requests/catalog', headers);
      const company = (id: string): Company | 'ninguna' => (idsOf('DEMO').has(id) ? 'DEMO' : idsOf('PLUS').has(id) ? 'PLUS' : 'ninguna');
      const set = (values: string[]) => [...new Set(values)].sort();
      return {
        requests: set(requestsPage.items.map((item) => companyOfAgreement(item.agreementId))),
        preRequests: set(preRequestsPage.items.map((item) => companyOfAgreement(item.agreementId))),
        users: set(usersPage.items.map((item) => company(item.companyId))),
        agreements: set(agreementsPage.items.map((item) => company(item.companyId))),
        outbox: set(
          outboxPage.items.map((item) =>
            item.toEmail === 'aviso@demo.example.mx' ? 'DEMO' : item.toEmail === 'aviso@plus.example.mx' ? 'PLUS' : 'otro',
          ),
        ).filter((value) => value !== 'otro'),
        companies: set(companiesList.items.map((item) => company(item.id))),
        catalog: set(catalog.agreements.map((item) => companyOfAgreement(item.id))),
        totals: { requests: requestsPage.total, users: usersPage.total, agreements: agreementsPage.total },
      };
    };

    const asPlus = await seen(plus, owner.PLUS);
    expect(asPlus).toMatchObject({
      requests: ['PLUS'],
      preRequests: ['PLUS'],
      users: ['PLUS'],
      agreements: ['PLUS'],
      outbox: ['PLUS'],
      companies: ['PLUS'],
      catalog: ['PLUS'],
    });
    const asAdmin = await seen(admin);
    expect(asAdmin).toMatchObject({
      requests: ['DEMO', 'PLUS'],
      preRequests: ['DEMO', 'PLUS'],
      users: ['DEMO', 'PLUS'],
      agreements: ['DEMO', 'PLUS'],
      outbox: ['DEMO', 'PLUS'],
      companies: ['DEMO', 'PLUS'],
      catalog: ['DEMO', 'PLUS'],
    });
    // The totals are the company's own rows, counted by the system.
    const [plusRequests] = await ctx.system((db) =>
      db.select({ total: count() }).from(requests).where(eq(requests.companyId, companyId.PLUS)),
    );
    const [plusUsers] = await ctx.system((db) => db.select({ total: count() }).from(users).where(eq(users.companyId, companyId.PLUS)));
    const [allRequests] = await ctx.system((db) => db.select({ total: count() }).from(requests));
    expect(asPlus.totals).toMatchObject({ requests: plusRequests!.total, users: plusUsers!.total, agreements: agreementIds.PLUS.length });
    expect(asAdmin.totals).toMatchObject({ requests: allRequests!.total, agreements: agreementIds.DEMO.length + agreementIds.PLUS.length });
  });

  it("shows Cartera (credits, their totals and filter, business dates, day closes) of the user's company only, and every company for role SA", async () => {
    const [plusCredits] = await ctx.system((db) =>
      db.select({ total: count() }).from(credits).where(eq(credits.companyId, companyId.PLUS)),
    );
    const [allCredits] = await ctx.system((db) => db.select({ total: count() }).from(credits));
    const cartera = async (headers: Headers) => {
      const page = await list<{ items: { company: string }[]; total: number }>('/api/credits?pageSize=100', headers);
      const totals = await list<{ count: number }>('/api/credits/totals', headers);
      const options = await list<{ id: string }[]>('/api/credits/agreement-options', headers);
      const dates = await list<{ companyId: string }[]>('/api/flow-date/business-dates', headers);
      const closes = await list<{ items: { companyId: string }[] }>('/api/flow-date/day-closes', headers);
      const company = (id: string) => (id === companyId.DEMO ? 'DEMO' : id === companyId.PLUS ? 'PLUS' : 'ninguna');
      return {
        total: page.total,
        counted: totals.count,
        agreements: [...new Set(options.map((row) => companyOfAgreement(row.id)))].sort(),
        dates: dates.map((row) => company(row.companyId)).sort(),
        closes: [...new Set(closes.items.map((row) => company(row.companyId)))].sort(),
      };
    };
    const companyOfAgreement = (id: string) =>
      agreementIds.DEMO.includes(id) ? 'DEMO' : agreementIds.PLUS.includes(id) ? 'PLUS' : 'ninguna';
    // The seed records yesterday's close of each company: each has a close to hide from the other.
    const [closed] = await ctx
      .system((db) =>
        db.execute(
          sql`select count(*) filter (where company_id = ${companyId.PLUS})::int as plus, count(*) filter (where company_id = ${companyId.DEMO})::int as demo from day_closes`,
        ),
      )
      .then((result) => (result as unknown as { rows: { plus: number; demo: number }[] }).rows);
    expect(closed!.plus * closed!.demo).toBeGreaterThan(0);
    expect(await cartera(owner.PLUS)).toEqual({
      total: plusCredits!.total,
      counted: plusCredits!.total,
      agreements: ['PLUS'],
      dates: ['PLUS'],
      closes: ['PLUS'],
    });
    expect(await cartera(owner.DEMO)).toMatchObject({ agreements: ['DEMO'], dates: ['DEMO'], closes: ['DEMO'] });
    expect(await cartera(admin)).toMatchObject({
      total: allCredits!.total,
      counted: allCredits!.total,
      agreements: ['DEMO', 'PLUS'],
      dates: ['DEMO', 'PLUS'],
      closes: ['DEMO', 'PLUS'],
    });
    // "Cerrar día" naming the other company is refused as not found, and queues nothing.
    const closing = await ctx.app.inject({
      method: 'POST',
      url: '/api/flow-date/day-closes',
      headers: owner.PLUS,
      payload: { companyId: companyId.DEMO },
    });
    expect(closing.statusCode, closing.body).toBe(404);
    const [queued] = await ctx.system((db) => db.select({ total: count() }).from(dayCloseRuns).where(eq(dayCloseRuns.status, 'en espera')));
    expect(queued!.total).toBe(0);
  });

  it("shows the payment files, their upload choices and the payments report of the user's company only, and every company for role SA", async () => {
    const seen = async (headers: Headers) => {
      const files = await list<{ items: { agreementId: string }[]; total: number }>('/api/payment-files?pageSize=100', headers);
      const options = await list<{ agreementId: string }[]>('/api/payment-files/upload-options', headers);
      const paid = await list<{ items: { agreementId: string }[]; total: number }>('/api/payments?pageSize=100', headers);
      // The totals add the payments that stand: the same set as the list of the aplicado ones.
      const totals = await list<{ count: number }>('/api/payments/totals', headers);
      const standing = await list<{ total: number }>('/api/payments?pageSize=1&status=aplicado', headers);
      const companiesOf = (rows: { agreementId: string }[]) => [...new Set(rows.map((row) => companyOfAgreement(row.agreementId)))].sort();
      return {
        files: companiesOf(files.items),
        options: companiesOf(options),
        payments: companiesOf(paid.items),
        counted: totals.count === standing.total,
      };
    };
    const companyOfAgreement = (id: string) =>
      agreementIds.DEMO.includes(id) ? 'DEMO' : agreementIds.PLUS.includes(id) ? 'PLUS' : 'ninguna';
    const [byCompany] = await ctx
      .system((db) =>
        db.execute(
          sql`select count(*) filter (where company_id = ${companyId.PLUS})::int as plus, count(*) filter (where company_id = ${companyId.DEMO})::int as demo from payments`,
        ),
      )
      .then((result) => (result as unknown as { rows: { plus: number; demo: number }[] }).rows);
    // The seed pays the recent payroll of both companies by files: each has files and payments to hide from the other.
    expect(byCompany!.plus * byCompany!.demo).toBeGreaterThan(0);
    expect(await seen(owner.PLUS)).toEqual({ files: ['PLUS'], options: ['PLUS'], payments: ['PLUS'], counted: true });
    expect(await seen(owner.DEMO)).toEqual({ files: ['DEMO'], options: ['DEMO'], payments: ['DEMO'], counted: true });
    expect(await seen(admin)).toEqual({ files: ['DEMO', 'PLUS'], options: ['DEMO', 'PLUS'], payments: ['DEMO', 'PLUS'], counted: true });
  });

  it("takes no payment file for another company's agreement, tells nothing of its files, and sums none of its payments", async () => {
    const [applied] = await ctx.system((db) =>
      db
        .select({
          id: paymentFiles.id,
          agreementId: paymentFiles.agreementId,
          discountDate: paymentFiles.discountDate,
          fileName: paymentFiles.fileName,
        })
        .from(paymentFiles)
        .where(sql`${paymentFiles.companyId} = ${companyId.DEMO} and ${paymentFiles.status} = 'aplicado'`)
        .limit(1),
    );
    expect(applied).toBeDefined();
    const upload = (headers: Headers) => {
      const boundary = '----isolation';
      const part = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const payload =
        part('agreementId', applied!.agreementId) +
        part('discountDate', applied!.discountDate) +
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="ajeno.csv"\r\ncontent-type: text/csv\r\n\r\nempleado,curp,importe\r\nX-${headers.authorization.slice(-8)},X,1.00\r\n--${boundary}--\r\n`;
      return ctx.app.inject({
        method: 'POST',
        url: '/api/payment-files',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    };
    // A user of the other company who may upload files: the agreement is not found, and nothing of its files is said.
    const refused = await upload(owner.PLUS);
    expect(refused.statusCode, refused.body).toBe(404);
    expect(refused.body).not.toContain(applied!.fileName);
    // The control: the agreement's own company reaches it (read, or refused for its content, never as not found).
    expect([403, 404]).not.toContain((await upload(owner.DEMO)).statusCode);
    // The payments report's totals of that file, with and without a status, add nothing of it for the other company.
    for (const status of ['', '&status=aplicado', '&status=revertido']) {
      expect(
        await list<{ count: number; amount: string }>(`/api/payments/totals?fileId=${applied!.id}${status}`, owner.PLUS),
      ).toMatchObject({ count: 0, amount: '0.00' });
    }
    expect((await list<{ count: number }>(`/api/payments/totals?fileId=${applied!.id}`, owner.DEMO)).count).toBeGreaterThan(0);
  });

  it("exports only the user's company rows (the streamed exports read outside the request's transaction), and both for role SA", async () => {
    const exported = async (url: string, sheetName: string, headers: Headers) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet(sheetName)!;
      const header = sheet.getRow(1).values as unknown[];
      const column = header.indexOf('Empresa');
      expect(column, `${url} has a company column`).toBeGreaterThan(0);
      return [...new Set(sheet.getColumn(column).values.slice(2).map(String))].sort();
    };
    const names = await ctx.system((db) => db.select({ id: companies.id, name: companies.name }).from(companies));
    const name = (company: Company) => names.find((row) => row.id === companyId[company])!.name;
    for (const [url, sheet] of [
      ['/api/users/export.xlsx', 'Usuarios'],
      ['/api/agreements/export.xlsx', 'Convenios'],
      ['/api/credits/export.xlsx', 'Créditos'],
    ] as const) {
      expect(await exported(url, sheet, plus), `${url} as plus@demo.mx`).toEqual([name('PLUS')]);
      expect(await exported(url, sheet, admin), `${url} as admin@demo.mx`).toEqual([name('DEMO'), name('PLUS')].sort());
    }
  });

  it("refuses with 400, writing nothing, a simulation or pre-request on another company's agreement", async () => {
    const [jal] = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(eq(agreements.code, 'GOB-JAL')),
    );
    const input = {
      curp: 'PXNE660720HMCXTN06',
      rfc: '',
      firstNames: 'Enrique',
      lastName1: 'Peña',
      lastName2: 'Nieto',
      ...jal!,
      employeeNumber: 'X-1',
      netSalary: '30000',
      otherDeductions: '0',
      amount: '6000',
      term: 12,
    };
    const counts = () =>
      ctx.system(async (db) => {
        const total = async (table: typeof preRequests | typeof clients | typeof auditEvents) =>
          (await db.select({ total: count() }).from(table))[0]!.total;
        return { preRequests: await total(preRequests), clients: await total(clients), audit: await total(auditEvents) };
      });
    const before = await counts();
    for (const url of ['/api/pre-requests/simulate', '/api/pre-requests']) {
      const response = await ctx.app.inject({ method: 'POST', url, payload: input, headers: plus });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ field: 'agreementId' }] });
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses to move a request to another company's agreement: its documents, client and history stay with it", async () => {
    const [acme] = await ctx.system((db) =>
      db
        .select({ agreementId: agreements.id, productId: agreementProducts.id })
        .from(agreements)
        .innerJoin(agreementProducts, eq(agreementProducts.agreementId, agreements.id))
        .where(eq(agreements.code, 'ACME-PRIV')),
    );
    const [moving] = await ctx.system(async (db) => {
      const [row] = await db
        .select({ id: requests.id })
        .from(requests)
        .where(
          sql`${requests.companyId} = ${companyId.DEMO} and ${requests.status} <> 'dispersada' and ${requests.id} <> ${targets.DEMO.requests}`,
        )
        .limit(1);
      await db.update(requests).set({ status: 'capturada', decidedAt: null, decidedBy: null }).where(eq(requests.id, row!.id));
      return [row!];
    });
    const current = (await ctx.app.inject({ url: `/api/requests/${moving!.id}`, headers: admin })).json<Json>();
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/requests/${moving!.id}`,
      payload: { ...current, ...acme!, netSalary: '90000', otherDeductions: '0', amount: '10000', term: 12 },
      headers: admin,
    });
    expect(moved.statusCode, moved.body).toBe(400);
    expect(moved.json()).toMatchObject({
      errors: [{ field: 'agreementId', message: 'Elige un convenio de la misma empresa de la solicitud.' }],
    });

    // DEMO keeps the request and its three documents; PLUS sees none of them.
    const demo = await ctx.as('originacion@demo.mx');
    const asDemo = await ctx.app.inject({ url: `/api/requests/${moving!.id}`, headers: demo });
    const answers = {
      plusRequest: (await ctx.app.inject({ url: `/api/requests/${moving!.id}`, headers: plus })).statusCode,
      plusDownload: (await ctx.app.inject({ url: `/api/requests/${moving!.id}/documents/ine`, headers: plus })).statusCode,
      demoDocuments: asDemo.json<{ documentList: unknown[] }>().documentList.length,
      demoDownload: (await ctx.app.inject({ url: `/api/requests/${moving!.id}/documents/ine`, headers: demo })).statusCode,
    };
    expect(answers).toEqual({ plusRequest: 404, plusDownload: 404, demoDocuments: 3, demoDownload: 200 });
  });
});
