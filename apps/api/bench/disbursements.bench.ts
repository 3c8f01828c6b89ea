/**
 * `npm run bench:disburse -w @portal/api` (also part of `npm run bench`): disbursements per second on PostgreSQL (BENCH_DATABASE_URL, default the
 * local server). Seeds BENCH_DISBURSEMENTS approved requests for 24-installment quincenal credits, then disburses
 * each one through the same transaction the API runs (row lock, status and version checks, the credit, its 24
 * installments and 24 expected deductions, the request's new status and two audit events), BENCH_CONCURRENCY at a time.
 */
import { count, eq } from 'drizzle-orm';
import { clabeCheckDigit } from '@portal/lending';
import { asSystem, withScope } from '../src/db/scope';
import { seedDemo } from '../src/seed/seed';
import { agreementProducts, agreements } from '../src/db/schema/agreements';
import { credits, expectedDeductions, installments } from '../src/db/schema/credits';
import { clients, requests } from '../src/db/schema/origination';
import { users } from '../src/db/schema/users';
import { judge } from '../src/modules/origination/pre-requests.service';
import { mexicoToday } from '../src/modules/shared/business-date';
import { runAction } from '../src/modules/origination/requests.service';
import type { Actor } from '../src/modules/audit/audit';
import { postgresDatabase } from './bench-database';
import { DEFAULT_DAILY_MINIMUM_WAGE } from '../src/config';

const TOTAL = Number(process.env.BENCH_DISBURSEMENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const postgres = await postgresDatabase();
if (!postgres) {
  console.log('PostgreSQL no responde en BENCH_DATABASE_URL: se omite.');
  process.exit(0);
}
const { db: raw } = postgres.database;
try {
  await seedDemo(raw);
  const now = new Date();
  // Setting up is the system's work across companies; each disbursement then runs in its company's scope, as in the API.
  const { agreement, admin, ids, today } = await asSystem(raw, async (db) => {
    const today = mexicoToday(now);
    const [jal] = await db
      .select({ agreement: agreements, product: agreementProducts })
      .from(agreementProducts)
      .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId))
      .where(eq(agreements.code, 'GOB-JAL'));
    const { agreement, product } = jal!;
    const [admin] = await db.select().from(users).where(eq(users.email, 'admin@demo.mx'));
    const capture = {
      curp: 'PXNE660720HMCXTN06',
      rfc: '',
      firstNames: 'Enrique',
      lastName1: 'Peña',
      lastName2: 'Nieto',
      agreementId: agreement.id,
      productId: product.id,
      employeeNumber: 'J-1001',
      netSalary: '9000.00',
      otherDeductions: '0.00',
      amount: '20000.00',
      term: 24,
    };
    const simulation = judge(agreement, product, capture, today, DEFAULT_DAILY_MINIMUM_WAGE);
    const [client] = await db
      .insert(clients)
      .values({
        companyId: agreement.companyId,
        curp: capture.curp,
        firstNames: capture.firstNames,
        lastName1: capture.lastName1,
        lastName2: capture.lastName2,
        birthDate: simulation.birthDate,
        sex: simulation.sex,
      })
      .returning();
    const ids: string[] = [];
    for (let start = 0; start < TOTAL; start += 500) {
      const batch = await db
        .insert(requests)
        .values(
          Array.from({ length: Math.min(500, TOTAL - start) }, () => ({
            ...capture,
            rfc: null,
            clientId: client!.id,
            companyId: agreement.companyId,
            street: 'Av. Juárez',
            exteriorNumber: '100',
            neighborhood: 'Centro',
            municipality: 'Guadalajara',
            state: 'Jalisco',
            postalCode: '44100',
            phone: '3312345678',
            email: 'bench@correo.mx',
            references: [],
            clabe: `00218012345678901${clabeCheckDigit('00218012345678901')}`,
            simulation,
            installment: simulation.installment,
            status: 'aprobada' as const,
            decidedBy: admin!.id,
            decidedAt: now,
          })),
        )
        .returning({ id: requests.id });
      ids.push(...batch.map((row) => row.id));
    }
    return { agreement, admin, ids, today };
  });

  const actor: Actor = {
    id: 'bench',
    identity: null,
    principal: {
      userId: admin!.id,
      email: admin!.email,
      name: null,
      companyId: admin!.companyId,
      profileId: admin!.profileId,
      role: 'SA',
      permissions: new Set(),
    },
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        await withScope(raw, { companyId: agreement.companyId }, (tx) =>
          runAction(tx, actor, id, 'disburse', { version: 1, disbursementDate: today }, now, DEFAULT_DAILY_MINIMUM_WAGE),
        );
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const [[made], [rows], [expected]] = await asSystem(raw, (db) =>
    Promise.all([
      db.select({ total: count() }).from(credits),
      db.select({ total: count() }).from(installments),
      db.select({ total: count() }).from(expectedDeductions),
    ]),
  );
  console.log(
    `PostgreSQL: ${TOTAL.toLocaleString('en-US')} dispersiones de 24 pagos en ${seconds.toFixed(1)} s = ${Math.round(TOTAL / seconds).toLocaleString('en-US')}/s ` +
      `(${CONCURRENCY} a la vez; ${made!.total.toLocaleString('en-US')} créditos, ${rows!.total.toLocaleString('en-US')} pagos, ${expected!.total.toLocaleString('en-US')} descuentos esperados)`,
  );
} finally {
  await postgres.drop();
}
