import type { LetterPayoff, LetterTexts } from '@portal/contract';

/**
 * The letter's fields as printed, in es-MX: money as $12,345.67, dates as "15 de enero de 2027", the hour in Mexico
 * City's time. Written by hand (no locale data) so the PDF's bytes never depend on the server's ICU version.
 */

const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/** `2027-01-15` → `15 de enero de 2027`. */
export function longDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return `${day} de ${MONTHS[month! - 1]} de ${year}`;
}

/** A decimal string with two decimals (`12345.6`, `12345.67`) → `$12,345.67`. */
export function letterMoney(amount: string): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

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
    montoCredito: letterMoney(payoff.creditAmount),
    plazo: `${payoff.term} pagos`,
    pagos: `${payoff.paymentsMade} de ${payoff.term}`,
    descuento: letterMoney(payoff.installment),
    transito: letterMoney(payoff.inTransit),
    saldoFinal: letterMoney(payoff.finalBalance),
    vigencia: longDate(payoff.validUntil),
    fechaDescuento: payoff.discountDate ? `${longDate(payoff.discountDate)} (${letterMoney(payoff.pendingDeduction)})` : 'Sin descuento en la vigencia',
    referencia: subject.reference,
    montoTotal: letterMoney(payoff.totalAmount),
  };
}
