// Throughput of the hot paths, on one core (Node runs this on a single thread).
// Run: npm run bench -w packages/lending
import {
  allocatePayment,
  buildSchedule,
  computeCat,
  installmentsFromSchedule,
  payoffQuote,
  type InstallmentState,
  type ScheduleInput,
} from '../src/index.ts';

function measure(label: string, iterations: number, run: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(2000, iterations); i++) run(i); // warm up the JIT
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < iterations; i++) if (run(i) !== undefined) sink++;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = iterations / seconds;
  console.log(
    `${label.padEnd(58)} ${Math.round(perSecond).toLocaleString('en-US').padStart(10)} /s  (${iterations.toLocaleString('en-US')} in ${seconds.toFixed(2)} s${sink === iterations ? '' : ', ?'})`,
  );
  return perSecond;
}

// A portfolio of 24-installment quincenal credits: varied amounts, a handful of products, both first-due-date kinds.
const RATES = ['0.36', '0.42', '0.48', '0.30', '0.55'];
const FIRST_DATES = ['2025-01-15', '2025-01-31', '2025-02-15', '2025-02-28', '2025-03-15', '2025-03-31'];
function portfolioInput(i: number): ScheduleInput {
  const pesos = 3_000 + ((i * 7919) % 197_000);
  const centavos = (i * 37) % 100;
  return {
    principal: `${pesos}.${String(centavos).padStart(2, '0')}`,
    annualRate: RATES[i % RATES.length] ?? '0.36',
    ivaRate: '0.16',
    term: 24,
    frequency: 'quincenal',
    firstDueDate: FIRST_DATES[i % FIRST_DATES.length] ?? '2025-01-15',
  };
}

console.log(`@portal/lending benchmark — Node ${process.version}, ${process.arch}`);
const schedulesPerSecond = measure('buildSchedule, 24 quincenal installments', 300_000, (i) => buildSchedule(portfolioInput(i)));
console.log(`  → 1,000,000 credits rebuilt in ${(1_000_000 / schedulesPerSecond).toFixed(1)} s on one core (budget: 60 s)`);

// Payoff quotes of credits partway through, with deductions in transit and a letter validity window.
const quoteStates: Array<{ installments: InstallmentState[]; installment: string; principal: string }> = [];
for (let k = 0; k < 64; k++) {
  const input = portfolioInput(k);
  const schedule = buildSchedule(input);
  const paid = 3 + (k % 18);
  quoteStates.push({
    principal: input.principal,
    installment: schedule.installment,
    installments: installmentsFromSchedule(schedule).map((inst) =>
      inst.number <= paid ? { ...inst, paid: { principal: inst.principal, interest: inst.interest, iva: inst.iva } } : inst,
    ),
  });
}
measure('payoffQuote, partway with 2 deductions in transit', 100_000, (i) => {
  const s = quoteStates[i % quoteStates.length];
  if (s === undefined) return undefined;
  return payoffQuote({
    creditAmount: s.principal,
    installment: s.installment,
    disbursementDate: '2024-12-31',
    ivaRate: '0.16',
    installments: s.installments,
    inTransit: [s.installment, s.installment],
    quoteDate: '2025-06-20',
    validUntil: '2025-07-05',
  });
});

measure('allocatePayment, one deduction of a 24-installment credit', 100_000, (i) => {
  const s = quoteStates[i % quoteStates.length];
  if (s === undefined) return undefined;
  return allocatePayment({
    amount: s.installment,
    valueDate: '2025-06-20',
    disbursementDate: '2024-12-31',
    ivaRate: '0.16',
    annualRate: '0.36',
    frequency: 'quincenal',
    installment: s.installment,
    installments: s.installments,
  });
});

const catSchedule = buildSchedule(portfolioInput(1));
const catPayments = catSchedule.rows.map((r) => {
  const c = BigInt(r.principal.replace('.', '')) + BigInt(r.interest.replace('.', ''));
  return `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
});
measure('computeCat, 24 payments', 50_000, () =>
  computeCat({ netDisbursement: portfolioInput(1).principal, payments: catPayments, periodsPerYear: 24 }),
);
