import type { LetterPayoff, LetterTexts } from '@portal/contract';
import { longDate, pesos } from '../shared/es-mx';

/**
 * The letter's fields as printed, in es-MX: money as $12,345.67, dates as "15 de enero de 2027" (shared/es-mx.ts), the
 * hour in Mexico City's time. Written by hand (no locale data) so the PDF's bytes never depend on the server's ICU version.
 */

const MEXICO_DATE_TIME = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Mexico_City',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The instant's civil date and hour in Mexico City: `{ date: '2026-11-23', hour: '09:00' }`. */
export function mexicoDateAndHour(instant: Date): { date: string; hour: string } {
  const parts = Object.fromEntries(MEXICO_DATE_TIME.formatToParts(instant).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: `${parts.hour}:${parts.minute}` };
}

export interface LetterSubject {
  folio: string;
  clientName: string;
  agreement: string;
  reference: string;
  issuedAt: Date;
}

/** Every field of the letter, from the credit, the payoff at the validity date and the reference. */
export function letterTexts(subject: LetterSubject, payoff: LetterPayoff): LetterTexts {
  const created = mexicoDateAndHour(subject.issuedAt);
  return {
    createdDate: longDate(created.date),
    createdHour: `${created.hour} h`,
    idPestamo: subject.folio,
    cliente: subject.clientName,
    convenio: subject.agreement,
    montoCredito: pesos(payoff.creditAmount),
    plazo: `${payoff.term} pagos`,
    pagos: `${payoff.paymentsMade} de ${payoff.term}`,
    descuento: pesos(payoff.installment),
    transito: pesos(payoff.inTransit),
    saldoFinal: pesos(payoff.finalBalance),
    vigencia: longDate(payoff.validUntil),
    fechaDescuento: payoff.discountDate
      ? `${longDate(payoff.discountDate)} (${pesos(payoff.pendingDeduction)})`
      : 'Sin descuento en la vigencia',
    referencia: subject.reference,
    montoTotal: pesos(payoff.totalAmount),
  };
}
