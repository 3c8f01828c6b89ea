import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LAST_DAY_OF_MONTH, assessEligibility, checkCurp, firstPayday } from '@portal/lending';
import { parseMoney, percentToFraction, type OriginationCatalog, type PreRequestInput } from '@portal/contract';
import { formatDate, formatMoney } from '../../lib/format';

/**
 * The agreement and product a form has chosen, from the catalog of agreements in force, and the choices of its
 * Convenio, Producto and Plazo selects, labelled the same in every origination form.
 */
export function chosenLoan(catalog: OriginationCatalog, agreementId: string | undefined, productId: string | undefined) {
  const agreement = catalog.agreements.find((entry) => entry.id === agreementId);
  const product = agreement?.products.find((entry) => entry.id === productId);
  return {
    agreement,
    product,
    options: {
      agreements: catalog.agreements.map((entry) => ({ value: entry.id, label: `${entry.code} · ${entry.name}` })),
      products: (agreement?.products ?? []).map((entry) => ({ value: entry.id, label: `${entry.name} (${entry.annualRatePct} % anual)` })),
      terms: (product?.terms ?? []).map((term) => ({ value: String(term), label: `${term} pagos` })),
    },
  };
}

/** How the first period is charged, in the clerk's words: a regular period, or so many days charged by days. */
export function firstPeriodText(schedule: { rows: { dueDate: string }[]; firstPeriodDays?: number; firstPeriodByDays?: boolean }): string {
  const first = schedule.rows[0]?.dueDate ?? '';
  if (schedule.firstPeriodByDays)
    return `Primer descuento ${formatDate(first)}: primer periodo de ${schedule.firstPeriodDays} días, con interés calculado por días.`;
  return `Primer descuento ${formatDate(first)}: primer periodo completo.`;
}

/** The verdict as the browser computes it with packages/lending while the clerk types; the server's is the one kept. */
export function LiveVerdict({ values, catalog }: { values: PreRequestInput; catalog: OriginationCatalog }) {
  const verdict = useMemo(() => {
    const { agreement, product } = chosenLoan(catalog, values.agreementId, values.productId);
    const curp = checkCurp((values.curp ?? '').trim().toUpperCase(), catalog.today);
    // The same forgiving parser as the schema: "30,000" previews as 30000.00 before it is saved.
    const amount = parseMoney(values.amount ?? '');
    const netSalary = parseMoney(values.netSalary ?? '');
    const otherDeductions = parseMoney(values.otherDeductions || '0');
    if (!agreement || !product || !curp.ok || !values.term || !amount || !netSalary || !otherDeductions) return null;
    try {
      // Quoted as if contracted today: the first payday after the agreement's payroll cut-off, the first period by days.
      const calendar = {
        frequency: agreement.frequency,
        ...(agreement.payDay !== null ? { payDay: agreement.payDay } : {}),
        ...(agreement.paydayWeekday !== null ? { paydayWeekday: agreement.paydayWeekday } : {}),
        cutOffLeadDays: agreement.cutOffLeadDays,
        nonWorkingDays: agreement.nonWorkingDays,
      };
      const first = firstPayday(calendar, catalog.today);
      return {
        curp,
        result: assessEligibility({
          amount,
          annualRate: percentToFraction(product.annualRatePct),
          ivaRate: percentToFraction(product.ivaRatePct),
          openingFeeRate: percentToFraction(product.openingFeePct),
          openingFeeFinanced: product.openingFeeFinanced,
          term: Number(values.term),
          frequency: agreement.frequency,
          firstDueDate: first.nominal,
          payDay: agreement.payDay ?? LAST_DAY_OF_MONTH,
          nonWorkingDays: agreement.nonWorkingDays,
          disbursementDate: catalog.today,
          contractDate: catalog.today,
          dailyMinimumWage: catalog.dailyMinimumWage,
          birthDate: curp.birthDate,
          netSalary,
          otherDeductions,
          maxDeductionRate: percentToFraction(agreement.maxDeductionPct),
          product,
        }),
      };
    } catch {
      return null;
    }
  }, [values, catalog]);

  if (!verdict) {
    return (
      <Alert severity="info">Captura una CURP válida, el convenio, el producto, el plazo, el sueldo y el monto para ver el dictamen.</Alert>
    );
  }
  const { result, curp } = verdict;
  return (
    <Stack spacing={1} aria-label="Dictamen en vivo">
      <Typography variant="body2" color="text.secondary">
        Nacimiento {formatDate(curp.birthDate)} · sexo {curp.sex === 'H' ? 'hombre' : 'mujer'} · {result.ageAtEnd} años al terminar el plazo
        ({formatDate(result.lastDueDate)})
      </Typography>
      <Typography>
        Capacidad de pago: <strong>{formatMoney(result.capacity)}</strong> por periodo · Descuento:{' '}
        <strong>{formatMoney(result.quote.schedule.installment)}</strong> · CAT <strong>{result.quote.cat} %</strong> sin IVA
      </Typography>
      <Typography variant="body2">
        Comisión por apertura {formatMoney(result.quote.openingFee)} + IVA {formatMoney(result.quote.openingFeeIva)} · monto a dispersar{' '}
        {formatMoney(result.quote.netDisbursement)}
      </Typography>
      <Typography variant="body2">{firstPeriodText(result.quote.schedule)}</Typography>
      {result.approved ? (
        <Alert severity="success">Pre-aprobada</Alert>
      ) : (
        <Alert severity="error">
          Rechazada:
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {result.reasons.map((reason) => (
              <li key={reason.code}>{reason.message}</li>
            ))}
          </ul>
        </Alert>
      )}
    </Stack>
  );
}
