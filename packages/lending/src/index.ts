// @portal/lending: the pure lending domain. No I/O, no framework; every amount is exact.
export { LendingInputError, type LendingErrorCode } from './errors.ts';

export {
  divRoundHalfUp,
  formatCents,
  parseCents,
  parseNonNegativeCents,
  parsePositiveCents,
  parseRate,
  type Cents,
  type Ratio,
} from './money.ts';

export { addDays, daysBetween, daysInMonth, isLeapYear } from './dates.ts';

export {
  buildSchedule,
  buildScheduleCents,
  dueDates,
  levelInstallment,
  DAY_COUNT_BASE,
  type DueDateOptions,
  isFrequency,
  FREQUENCIES,
  MAX_TERM,
  PERIODS_PER_YEAR,
  type Frequency,
  type Schedule,
  type ScheduleCents,
  type ScheduleInput,
  type ScheduleRow,
  type ScheduleRowCents,
} from './schedule.ts';

export { computeCat, computeCatByDates, periodicIrr, scheduleCat, type CatInput, type DatedCatInput } from './cat.ts';

export {
  firstPayday,
  isoWeekday,
  nextDiscountDate,
  payrollCalendar,
  DEFAULT_PAYDAY_WEEKDAY,
  LAST_DAY_OF_MONTH,
  type PayrollCalendar,
} from './calendar.ts';

export {
  ageOn,
  assessEligibility,
  paymentCapacity,
  quoteLoan,
  MINIMUM_AGE,
  PAY_DAYS_PER_PERIOD,
  type EligibilityInput,
  type EligibilityResult,
  type IneligibilityCode,
  type LoanQuote,
  type LoanQuoteInput,
} from './eligibility.ts';

export {
  DEFAULT_COMPONENT_ORDER,
  installmentsFromSchedule,
  type Component,
  type ComponentAmounts,
  type InstallmentState,
  type InterestAccrual,
} from './ledger.ts';

export {
  allocatePayment,
  revertPayment,
  type PrepaymentOption,
  type AllocationInput,
  type AllocationLine,
  type AllocationResult,
  type AllocationStep,
  type WaiverLine,
} from './allocation.ts';

export {
  accrueLateCharges,
  lateChargesForDays,
  type LateChargesForDaysInput,
  type LateChargesInput,
  type LateChargesResult,
} from './late-charges.ts';

export { payoffQuote, type PayoffInput, type PayoffQuote, type PendingDeduction } from './payoff.ts';

export {
  AGING_BUCKET_LABELS,
  AGING_BUCKET_LAST_DAYS,
  PAST_DUE_THRESHOLD_DAYS,
  agingBucket,
  daysPastDue,
  isPastDueCredit,
  type AgingBucket,
} from './aging.ts';

export {
  closeBusinessDay,
  closeBusinessDays,
  daysToClose,
  deductionStateAfterClose,
  type ClosedCredit,
  type ClosedDeduction,
  type CloseRangeInput,
  type CloseRangeResult,
  type CreditStatus,
  type DayCloseCredit,
  type DayCloseInput,
  type DayCloseResult,
  type DeductionState,
  type ExpectedDeduction,
  type InstallmentStatus,
} from './day-close.ts';

export {
  checkClabe,
  checkCurp,
  checkRfc,
  type ClabeCheckOptions,
  clabeCheckDigit,
  curpCheckDigit,
  isValidClabe,
  isValidCurp,
  isValidRfc,
  normalizeIdentifier,
  rfcCheckDigit,
  CURP_OFFENSIVE_WORDS,
  CURP_STATE_CODES,
  RFC_OFFENSIVE_WORDS,
  type ClabeCheck,
  type CurpCheck,
  type IdentifierProblem,
  type RfcCheck,
} from './identifiers.ts';

export { BANXICO_PARTICIPANTS, bankForCode, type BankParticipant } from './banks.ts';

export { addBusinessDays, isValidPaymentReference, mod97, mod97CheckDigits, paymentReference } from './reference.ts';

export {
  assessRenewal,
  otherDeductionsAfterRenewal,
  renewalRuleReasons,
  type RenewalInput,
  type RenewalReasonCode,
  type RenewalResult,
  type RenewalRule,
  type RenewedCredit,
} from './renewal.ts';
