/**
 * Every invalid input to this package throws a `LendingInputError`: a stable `code` the API can map to
 * Problem JSON, the `field` it refers to, and a Spanish `message` a clerk can act on.
 */
export type LendingErrorCode =
  | 'INVALID_AMOUNT'
  | 'NON_POSITIVE_AMOUNT'
  | 'NEGATIVE_AMOUNT'
  | 'INVALID_RATE'
  | 'INVALID_TERM'
  | 'INVALID_FREQUENCY'
  | 'INVALID_DATE'
  | 'INVALID_QUINCENAL_DATE'
  | 'INVALID_PERIODS_PER_YEAR'
  | 'INVALID_PAYMENTS'
  | 'CAT_NOT_SOLVABLE'
  | 'INVALID_INSTALLMENTS'
  | 'INVALID_COMPONENT_ORDER'
  | 'INVALID_DATE_ORDER'
  | 'INVALID_REMITTANCE_LAG'
  | 'INVALID_CALENDAR'
  | 'PAYMENT_NOT_REVERTIBLE'
  | 'INVALID_REFERENCE';

export class LendingInputError extends Error {
  override readonly name = 'LendingInputError';
  readonly code: LendingErrorCode;
  /** The input field the message is about, e.g. `principal` or `installments[3].dueDate`. */
  readonly field: string;

  constructor(code: LendingErrorCode, field: string, message: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}
