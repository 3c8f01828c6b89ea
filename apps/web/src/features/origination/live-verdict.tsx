import { useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { assessEligibility, checkCurp, nextDiscountDate } from '@portal/lending';
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

/** The verdict as the browser computes it with packages/lending while the clerk types; the server's is the one kept. */
export function LiveVerdict({ values, catalog }: { values: PreRequestInput; catalog: OriginationCatalog }) {
  const verdict = useMemo(() => {
    const { agreement, product } = chosenLoan(catalog, values.agreementId, values.productId);
    const curp = checkCurp((values.curp ?? '').trim().toUpperCase());
    // The same forgiving parser as the schema: "30,000" previews as 30000.00 before it is saved.
    const amount = parseMoney(values.amount ?? '');
    const netSalary = parseMoney(values.netSalary ?? '');
    const otherDeductions = parseMoney(values.otherDeductions || '0');
    if (!agreement || !product || !curp.ok || !values.term || !amount || !netSalary || !otherDeductions) return null;
    try {
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
          firstDueDate: nextDiscountDate(agreement.frequency, catalog.today),
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
    return <Alert severity="info">Captura una CURP válida, el convenio, el producto, el plazo, el sueldo y el monto para ver el dictamen.</Alert>;
  }
  const { result, curp } = verdict;
  return (
    <Stack spacing={1} aria-label="Dictamen en vivo">
      <Typography variant="body2" color="text.secondary">
        Nacimiento {formatDate(curp.birthDate)} · sexo {curp.sex === 'H' ? 'hombre' : 'mujer'} · {result.ageAtEnd} años al terminar el plazo ({formatDate(result.lastDueDate)})
      </Typography>
      <Typography>
        Capacidad de pago: <strong>{formatMoney(result.capacity)}</strong> por periodo · Descuento: <strong>{formatMoney(result.quote.schedule.installment)}</strong> · CAT{' '}
        <strong>{result.quote.cat} %</strong> sin IVA
      </Typography>
      <Typography variant="body2">
        Comisión por apertura {formatMoney(result.quote.openingFee)} · monto a dispersar {formatMoney(result.quote.netDisbursement)}
      </Typography>
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
