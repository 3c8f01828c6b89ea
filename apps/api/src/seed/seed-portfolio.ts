import { createHash } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { loadPdfLib } from '../lib/libraries';
import { CURP_OFFENSIVE_WORDS, clabeCheckDigit, curpCheckDigit, formatCents, parseCents } from '@portal/lending';
import { DOCUMENT_KINDS, DOCUMENT_LABELS, type MEXICAN_STATES, type RequestStatus, type Simulation } from '@portal/contract';
import type { Db, Tx } from '../db/client';
import { asSystem } from '../db/scope';
import { insertAsJson } from '../db/insert-json';
import { agreementProducts, agreements } from '../db/schema/agreements';
import { auditEvents } from '../db/schema/audit';
import { clients, preRequests, requestDocuments, requests } from '../db/schema/origination';
import { payments } from '../db/schema/payments';
import { businessDates, dayCloses } from '../db/schema/portfolio';
import { users } from '../db/schema/users';
import { identityColumns, judge, loanColumns, verdictColumns } from '../modules/origination/pre-requests.service';
import { mexicoToday } from '../modules/shared/business-date';
import { acceptedTermsFor, buildCredit, insertCredits, type CreditRows } from '../modules/portfolio/disbursement';
import { agePortfolio } from '../modules/portfolio/aging';
import { FILE_WINDOW_DAYS, seedPaymentFiles, type FilePaid } from './seed-payment-files';
import { seedLabels } from './seed-labels';
import { seedLetters } from './seed-letters';
import { refreshPortfolioFigures } from '../modules/portfolio/portfolio-figures';
import { seedReports } from './seed-reports';
import { seedRenewals } from './seed-renewals';
import { emitUpcomingOrder, substituteUpcomingOrder } from './seed-deduction-orders';
import { payrollCalendarOf } from '../modules/shared/products';
import { DEFAULT_DAILY_MINIMUM_WAGE } from '../config';

/** How many disbursed credits the demo portfolio starts with, besides the requests in every other status. */
export const DEMO_CREDITS = 300;

/** Requests left in each status before disbursement, so that every action of Capturas has something to act on. */
const OPEN_REQUESTS: Partial<Record<RequestStatus, number>> = { capturada: 4, 'en validación': 4, aprobada: 3, rechazada: 3, cancelada: 2 };

const MALE = ['José', 'Juan', 'Luis', 'Carlos', 'Jorge', 'Miguel', 'Raúl', 'Fernando', 'Ricardo', 'Alejandro', 'Roberto', 'Arturo'];
const FEMALE = ['María', 'Guadalupe', 'Ana', 'Lucía', 'Sofía', 'Elena', 'Paola', 'Verónica', 'Patricia', 'Claudia', 'Adriana', 'Laura'];
const SURNAMES = [
  'García',
  'Hernández',
  'López',
  'Martínez',
  'González',
  'Pérez',
  'Rodríguez',
  'Sánchez',
  'Ramírez',
  'Torres',
  'Flores',
  'Rivera',
  'Gómez',
  'Díaz',
  'Cruz',
  'Morales',
  'Reyes',
  'Ortiz',
  'Jiménez',
  'Vázquez',
];
const STREETS = ['Av. Juárez', 'Calle Hidalgo', 'Av. Revolución', 'Calle Morelos', 'Av. Independencia', 'Calle Allende'];
const NEIGHBORHOODS = ['Centro', 'Americana', 'Chapultepec', 'Las Águilas', 'Del Valle', 'Jardines del Bosque'];
const CURP_STATES = ['JC', 'DF', 'MC', 'NL', 'GT', 'PL', 'VZ', 'MN'];

/** A small deterministic generator (mulberry32): the same demo data on every fresh start. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

const plain = (value: string) =>
  value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
const firstInnerVowel = (value: string) =>
  plain(value)
    .slice(1)
    .match(/[AEIOU]/)?.[0] ?? 'X';
const firstInnerConsonant = (value: string) =>
  plain(value)
    .slice(1)
    .match(/[B-DF-HJ-NP-TV-Z]/)?.[0] ?? 'X';

/** A CURP built the way RENAPO builds one from the name and birth facts, with a valid check digit. */
function curpFor(
  person: { firstNames: string; lastName1: string; lastName2: string; birthDate: string; sex: 'H' | 'M'; state: string },
  homoclave: number,
): string {
  let initials = `${plain(person.lastName1)[0]}${firstInnerVowel(person.lastName1)}${plain(person.lastName2)[0]}${plain(person.firstNames)[0]}`;
  if (CURP_OFFENSIVE_WORDS.has(initials)) initials = `${initials[0]}X${initials.slice(2)}`;
  const [year, month, day] = person.birthDate.split('-');
  const first17 = `${initials}${year!.slice(2)}${month}${day}${person.sex}${person.state}${firstInnerConsonant(person.lastName1)}${firstInnerConsonant(person.lastName2)}${firstInnerConsonant(person.firstNames)}${homoclave}`;
  return `${first17}${curpCheckDigit(first17)}`;
}

async function demoDocument(kind: (typeof DOCUMENT_KINDS)[number]): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await loadPdfLib();
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  const page = pdf.addPage([420, 260]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(`${DOCUMENT_LABELS[kind]} (documento de demostración)`, { x: 30, y: 200, size: 14, font });
  page.drawText('Archivo generado por el seed de la demo; no es un documento real.', { x: 30, y: 170, size: 10, font });
  return Buffer.from(await pdf.save());
}

/**
 * The payment that collected a history installment on its payday, as the waterfall would have split it (on time, so
 * no late charges: its principal, interest and IVA, due). Without it a credit with paid rows would show no payments.
 */
function historyPayment(built: CreditRows, row: CreditRows['installments'][number]): typeof payments.$inferInsert {
  const amount = formatCents(parseCents(row.principal, 'capital') + parseCents(row.interest, 'interés') + parseCents(row.iva, 'IVA'));
  return {
    companyId: built.credit.companyId,
    creditId: built.credit.id,
    valueDate: row.dueDate,
    amount,
    principal: row.principal,
    interest: row.interest,
    iva: row.iva,
    moratoryInterest: '0.00',
    moratoryIva: '0.00',
    fees: '0.00',
    feesIva: '0.00',
    overpayment: '0.00',
    allocation: {
      lines: (['interest', 'iva', 'principal'] as const).map((component) => ({
        installment: row.number,
        component,
        amount: row[component],
        step: 'due',
      })),
      waived: [],
    },
    before: { installment: built.credit.installment, rows: [], deduction: { period: row.number, state: 'esperado' } },
    status: 'aplicado',
    appliedAt: new Date(`${row.dueDate}T18:00:00Z`),
  };
}

/**
 * The payroll's history before the demo starts: the deductions due before today were collected except the last
 * `missed` ones, so the portfolio has credits in every bucket. Most credits are up to date; about one in ten missed one
 * or two payrolls, one in twenty a few, one in twenty over ninety days. Deductions older than the file window are
 * history (installment paid in full, deduction recibido); the recent ones are returned, to be paid by the employers'
 * payment files (seed-payment-files.ts) as production pays them.
 */
function collectedHistory(
  built: CreditRows,
  today: string,
  random: ReturnType<typeof generator>,
  historyPayments: (typeof payments.$inferInsert)[],
): FilePaid[] {
  const roll = random.next();
  const missed = roll < 0.8 ? 0 : roll < 0.9 ? random.int(1, 2) : roll < 0.95 ? random.int(3, 4) : random.int(8, 12);
  const due = built.installments.filter((row) => row.dueDate < today);
  const collected = new Set(due.slice(0, Math.max(0, due.length - missed)).map((row) => row.number));
  const windowStart = addDaysIso(today, -FILE_WINDOW_DAYS);
  const byFile: FilePaid[] = [];
  const history = new Set<number>();
  for (const row of built.installments) {
    if (!collected.has(row.number)) continue;
    if (row.dueDate >= windowStart) byFile.push({ creditId: row.creditId, period: row.number });
    else {
      Object.assign(row, { paidPrincipal: row.principal, paidInterest: row.interest, paidIva: row.iva });
      history.add(row.number);
      historyPayments.push(historyPayment(built, row));
    }
  }
  for (const deduction of built.deductions) if (history.has(deduction.period)) deduction.state = 'recibido';
  return byFile;
}

const addDaysIso = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The demo portfolio: clients, pre-requests in every status, requests in every status with their documents, and
 * DEMO_CREDITS disbursed credits with schedules and expected deductions, spread over the last fourteen months.
 * Every verdict, schedule and credit comes from the same code the API uses (judge, buildCredit).
 */
/**
 * `renewals: false` leaves out the demo's renewals, for tests whose hand-picked credits must be the seed's first ones
 * as they were before renewals existed (payment files).
 */
export async function seedDemoPortfolio(db: Db, now: Date, credits = DEMO_CREDITS, options: { renewals?: boolean } = {}): Promise<void> {
  const random = generator(20261123);
  const today = mexicoToday(now);
  const documents = await Promise.all(DOCUMENT_KINDS.map(async (kind) => ({ kind, content: await demoDocument(kind) })));

  // The seed is the system's own work, across both companies.
  await asSystem(db, async (tx: Tx) => {
    const catalog = await tx
      .select({ agreement: agreements, product: agreementProducts })
      .from(agreementProducts)
      .innerJoin(agreements, eq(agreements.id, agreementProducts.agreementId));
    // Originación captures, Mesa de control decides, Tesorería disburses: three people, as maker-checker asks.
    const staff = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, ['originacion@demo.mx', 'mesa@demo.mx', 'tesoreria@demo.mx']));
    const capturer = staff.find((user) => user.email === 'originacion@demo.mx')?.id ?? null;
    const approver = staff.find((user) => user.email === 'mesa@demo.mx')?.id ?? null;
    const treasurer = staff.find((user) => user.email === 'tesoreria@demo.mx')?.id ?? null;
    const usedCurps = new Set<string>();

    /** One applicant whose salary leaves room for the installment: every seeded verdict is pre-aprobada. */
    const applicant = (createdOn: string) => {
      for (;;) {
        const { agreement, product } = random.pick(catalog);
        if (agreement.validFrom > createdOn || (agreement.validTo !== null && agreement.validTo < createdOn)) continue;
        const sex = random.next() < 0.5 ? 'H' : 'M';
        const person = {
          firstNames: random.pick(sex === 'H' ? MALE : FEMALE),
          lastName1: random.pick(SURNAMES),
          lastName2: random.pick(SURNAMES),
          birthDate: `${random.int(1968, 1998)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`,
          sex: sex as 'H' | 'M',
          state: random.pick(CURP_STATES),
        };
        let curp = curpFor(person, 0);
        for (let homoclave = 1; usedCurps.has(curp) && homoclave < 10; homoclave++) curp = curpFor(person, homoclave);
        if (usedCurps.has(curp)) continue;
        const term = random.pick(product.terms);
        const steps = Math.floor((Math.min(Number(product.maxAmount), 90_000) - Number(product.minAmount)) / 500);
        const amount = (Number(product.minAmount) + 500 * random.int(0, steps)).toFixed(2);
        const otherDeductions = (100 * random.int(0, 15)).toFixed(2);
        const input = {
          curp,
          rfc: '',
          ...person,
          agreementId: agreement.id,
          productId: product.id,
          employeeNumber: `E-${random.int(10_000, 99_999)}`,
          netSalary: '999999.00',
          otherDeductions,
          amount,
          term,
        };
        const probe = judge(agreement, product, input, createdOn, DEFAULT_DAILY_MINIMUM_WAGE);
        // Salary so that the agreement's cap covers the installment with a margin, rounded up to the hundred.
        const cap = Number(agreement.maxDeductionPct) / 100;
        const netSalary = (
          Math.ceil((((Number(probe.installment) + Number(otherDeductions)) / cap) * (1.05 + random.next() * 0.6)) / 100) * 100
        ).toFixed(2);
        const simulation = judge(agreement, product, { ...input, netSalary }, createdOn, DEFAULT_DAILY_MINIMUM_WAGE);
        if (simulation.result !== 'pre-aprobada') continue;
        usedCurps.add(curp);
        return { clientId: crypto.randomUUID(), agreement, product, input: { ...input, netSalary }, simulation };
      }
    };

    type Applicant = ReturnType<typeof applicant>;
    /** Everyone seeded, once each (CURPs are unique): written as the clients table. */
    const applicants: Applicant[] = [];
    const requestRows: (typeof requests.$inferInsert & { id: string })[] = [];
    const builtCredits: CreditRows[] = [];
    const preRequestRows: (typeof preRequests.$inferInsert)[] = [];

    const captured = (
      entry: Applicant,
      status: RequestStatus,
      createdAt: Date,
      id: string,
    ): typeof requests.$inferInsert & { id: string } => {
      const { input, simulation, agreement } = entry;
      const number = random.int(1000, 9999);
      return {
        id,
        clientId: entry.clientId,
        companyId: agreement.companyId,
        ...identityColumns(input),
        ...loanColumns(input),
        street: random.pick(STREETS),
        exteriorNumber: String(random.int(1, 3000)),
        interiorNumber: random.next() < 0.3 ? String(random.int(1, 40)) : '',
        neighborhood: random.pick(NEIGHBORHOODS),
        municipality: 'Guadalajara',
        state: 'Jalisco' satisfies (typeof MEXICAN_STATES)[number],
        postalCode: String(random.int(44100, 45999)),
        phone: `33${random.int(10_000_000, 99_999_999)}`,
        email: `${plain(input.firstNames).toLowerCase()}.${plain(input.lastName1).toLowerCase()}${number}@correo.mx`,
        references: [
          {
            name: `${random.pick(FEMALE)} ${random.pick(SURNAMES)}`,
            relationship: 'Hermana',
            phone: `33${random.int(10_000_000, 99_999_999)}`,
          },
          {
            name: `${random.pick(MALE)} ${random.pick(SURNAMES)}`,
            relationship: 'Compañero de trabajo',
            phone: `33${random.int(10_000_000, 99_999_999)}`,
          },
        ],
        clabe: (() => {
          const first17 = `${random.pick(['002', '012', '014', '021', '072'])}320${String(random.int(0, 99_999_999_999)).padStart(11, '0')}`;
          return `${first17}${clabeCheckDigit(first17)}`;
        })(),
        simulation: simulation as Simulation,
        installment: simulation.installment,
        ...(status === 'aprobada' || status === 'dispersada'
          ? { acceptedTerms: acceptedTermsFor(entry.product, simulation, input.term) }
          : {}),
        status,
        createdBy: capturer,
        capturedBy: capturer ? [capturer] : [],
        createdAt,
        updatedAt: createdAt,
      };
    };

    // Disbursed credits, from fourteen months ago to a week ago.
    for (let index = 0; index < credits; index++) {
      const disbursementDate = addDaysIso(today, -random.int(7, 420));
      const createdOn = addDaysIso(disbursementDate, -random.int(2, 10));
      const entry = applicant(createdOn);
      applicants.push(entry);
      const id = crypto.randomUUID();
      const createdAt = new Date(`${createdOn}T16:00:00Z`);
      const decidedAt = new Date(`${addDaysIso(createdOn, 1)}T17:00:00Z`);
      requestRows.push({
        ...captured(entry, 'dispersada', createdAt, id),
        decidedBy: approver,
        decidedAt,
        updatedAt: new Date(`${disbursementDate}T18:00:00Z`),
      });
      builtCredits.push(
        buildCredit({
          requestId: id,
          clientId: entry.clientId,
          companyId: entry.agreement.companyId,
          agreementId: entry.agreement.id,
          productId: entry.product.id,
          employeeNumber: entry.input.employeeNumber,
          amount: entry.input.amount,
          term: entry.input.term,
          clabe: requestRows.at(-1)!.clabe,
          frequency: entry.agreement.frequency,
          calendar: payrollCalendarOf(entry.agreement),
          product: entry.product,
          disbursementDate,
          disbursedBy: treasurer,
          createdAt: new Date(`${disbursementDate}T18:00:00Z`),
        }),
      );
    }

    // Requests still in progress (or closed without a credit), from the last three weeks.
    for (const [status, total] of Object.entries(OPEN_REQUESTS) as [RequestStatus, number][]) {
      for (let index = 0; index < total; index++) {
        const createdOn = addDaysIso(today, -random.int(1, 21));
        const entry = applicant(createdOn);
        applicants.push(entry);
        const createdAt = new Date(`${createdOn}T16:00:00Z`);
        const decided = status === 'aprobada' || status === 'rechazada';
        requestRows.push({
          ...captured(entry, status, createdAt, crypto.randomUUID()),
          ...(decided ? { decidedBy: approver, decidedAt: new Date(`${createdOn}T20:00:00Z`) } : {}),
          ...(status === 'rechazada' ? { rejectionReason: 'El recibo de nómina no corresponde al empleado.' } : {}),
          ...(status === 'cancelada' ? { cancellationReason: 'El cliente desistió del crédito.' } : {}),
        });
      }
    }

    // Pre-requests: drafts, sent ones within their 30 days, and expired ones.
    for (const [status, total, daysAgo] of [
      ['borrador', 3, [0, 5]],
      ['enviada', 3, [1, 20]],
      ['vencida', 2, [40, 70]],
    ] as const) {
      for (let index = 0; index < total; index++) {
        const createdOn = addDaysIso(today, -random.int(daysAgo[0], daysAgo[1]));
        const entry = applicant(createdOn);
        applicants.push(entry);
        preRequestRows.push({
          clientId: entry.clientId,
          companyId: entry.agreement.companyId,
          ...loanColumns(entry.input),
          ...verdictColumns(entry.simulation),
          status,
          sentAt: status === 'borrador' ? null : new Date(`${createdOn}T17:00:00Z`),
          createdBy: capturer,
          createdAt: new Date(`${createdOn}T16:00:00Z`),
          updatedAt: new Date(`${createdOn}T17:00:00Z`),
        });
      }
    }

    for (let start = 0; start < applicants.length; start += 500) {
      await tx.insert(clients).values(
        applicants.slice(start, start + 500).map(({ clientId, agreement, input, simulation }) => ({
          id: clientId,
          companyId: agreement.companyId,
          curp: input.curp,
          ...identityColumns(input),
          birthDate: simulation.birthDate,
          sex: simulation.sex,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }

    // Converted pre-requests: the first requests came from one each.
    const converted = requestRows.slice(0, 5).map((request) => ({ ...request, preRequestId: crypto.randomUUID() }));
    const allPreRequests = [
      ...preRequestRows,
      ...converted.map((request) => ({
        id: request.preRequestId,
        clientId: request.clientId,
        companyId: request.companyId,
        agreementId: request.agreementId,
        productId: request.productId,
        employeeNumber: request.employeeNumber,
        netSalary: request.netSalary,
        otherDeductions: request.otherDeductions,
        amount: request.amount,
        term: request.term,
        capacity: (request.simulation as Simulation).capacity,
        installment: request.installment,
        cat: (request.simulation as Simulation).cat,
        result: 'pre-aprobada' as const,
        status: 'convertida' as const,
        sentAt: request.createdAt,
        createdBy: capturer,
        createdAt: request.createdAt,
        updatedAt: request.createdAt,
      })),
    ].sort((left, right) => left.createdAt!.getTime() - right.createdAt!.getTime());
    await tx.insert(preRequests).values(allPreRequests);

    const orderedRequests = [...converted, ...requestRows.slice(5)].sort(
      (left, right) => left.createdAt!.getTime() - right.createdAt!.getTime(),
    );
    for (let start = 0; start < orderedRequests.length; start += 200) {
      await tx.insert(requests).values(orderedRequests.slice(start, start + 200));
    }
    const documentRows = orderedRequests.flatMap((request) =>
      documents.map(({ kind, content }) => ({
        requestId: request.id,
        companyId: request.companyId,
        kind,
        fileName: `${kind}-demo.pdf`,
        contentType: 'application/pdf',
        size: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        content,
        uploadedBy: capturer,
        uploadedAt: request.createdAt!,
      })),
    );
    for (let start = 0; start < documentRows.length; start += 300)
      await tx.insert(requestDocuments).values(documentRows.slice(start, start + 300));

    const creditsInOrder = builtCredits.sort((left, right) => left.credit.disbursementDate.localeCompare(right.credit.disbursementDate));
    const historyPayments: (typeof payments.$inferInsert)[] = [];
    const byFile = creditsInOrder.flatMap((built) => collectedHistory(built, today, random, historyPayments));
    await insertCredits(tx, creditsInOrder);
    // The history's payments, oldest first (before the files' below, as they came before them).
    historyPayments.sort((left, right) => left.valueDate.localeCompare(right.valueDate));
    await insertAsJson(tx, payments, historyPayments);
    // Each company's portfolio as yesterday's close left it (deductions, installment statuses, days past due, buckets):
    // today is the fecha flujo, the day the next "Cerrar día" closes.
    // That aging is recorded as yesterday's close, so Historial de cierres shows the day the README says was closed.
    const yesterday = addDaysIso(today, -1);
    for (const companyId of new Set(creditsInOrder.map((built) => built.credit.companyId))) {
      const started = Date.now();
      const moved = await agePortfolio(tx, companyId, yesterday);
      const own = creditsInOrder.filter((built) => built.credit.companyId === companyId);
      await tx.insert(dayCloses).values({
        companyId,
        businessDate: yesterday,
        creditsProcessed: own.length,
        newlyDueInstallments: own.reduce((sum, built) => sum + built.installments.filter((row) => row.dueDate === yesterday).length, 0),
        ...moved,
        durationMs: Date.now() - started,
        closedAt: now,
      });
      await tx.insert(businessDates).values({ companyId, businessDate: today }).onConflictDoNothing();
    }
    await seedPaymentFiles(tx, byFile, today, now);
    if (options.renewals !== false) {
      // One cédula emitted for its next payday, made sustituida by the renewals that change what it instructs.
      const upcoming = await emitUpcomingOrder(tx, now);
      await seedRenewals(tx, now);
      await substituteUpcomingOrder(tx, upcoming, now);
    }
    // The home's figures as of the seed (the files above left them at their own, earlier, times).
    for (const companyId of new Set(creditsInOrder.map((built) => built.credit.companyId)))
      await refreshPortfolioFigures(tx, companyId, today, now);

    await tx.insert(auditEvents).values({
      occurredAt: now,
      action: 'seed',
      entity: 'portfolio',
      entityId: capturer ?? 'demo',
      after: {
        clients: applicants.length,
        preRequests: allPreRequests.length,
        requests: orderedRequests.length,
        credits: creditsInOrder.length,
      },
    });
    await seedLabels(tx, now);
    await seedLetters(tx, now);
    await seedReports(tx, now);
  });
}
