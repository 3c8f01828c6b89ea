import { z } from 'zod';
import {
  LAYOUT_FIELDS,
  agreementInputSchema,
  type AgreementDetail,
  type AgreementInput,
  type Layout,
  type LayoutField,
  type PayFrequency,
} from '@portal/contract';

/** What the form edits: text as typed (numbers and lists included), turned into the contract's shape on submit. */
export interface ProductForm {
  id?: string;
  name: string;
  annualRatePct: string;
  ivaRatePct: string;
  openingFeePct: string;
  openingFeeFinanced: boolean;
  terms: string;
  minAmount: string;
  maxAmount: string;
  maxAgeAtEnd: string;
  moratoryRatePct: string;
  lateFee: string;
  /** Renewal rule: installments paid at least, days past due at most. */
  renewalMinPaid: string;
  renewalMaxDaysPastDue: string;
  active: boolean;
}

export interface LayoutForm {
  format: Layout['format'];
  delimiter: ',' | ';' | '|' | '\t';
  hasHeader: boolean;
  amountInCents: boolean;
  sheet: string;
  columns: Record<LayoutField, string>;
  starts: Record<LayoutField, string>;
  lengths: Record<LayoutField, string>;
}

export interface AgreementForm {
  companyId: string;
  code: string;
  name: string;
  employerName: string;
  employerRfc: string;
  sector: string;
  frequency: PayFrequency | '';
  maxDeductionPct: string;
  remittanceLagDays: string;
  /** Payroll calendar: mensual pay day (1–31), semanal/catorcenal weekday (1–7), cut-off lead days. Empty = default. */
  payDay: string;
  paydayWeekday: string;
  cutOffLeadDays: string;
  /** Non-working days of the payroll as typed: dd/mm/aaaa dates separated by commas. */
  nonWorkingDays: string;
  /** The cédula writes a renewal as one cambio line per employee instead of a baja and an alta. */
  renewalAsChange: boolean;
  validFrom: string;
  validTo: string;
  contacts: { name: string; email: string; phone: string }[];
  products: ProductForm[];
  layout: LayoutForm;
  active: boolean;
}

const blankFields = (): Record<LayoutField, string> =>
  Object.fromEntries(LAYOUT_FIELDS.map((field) => [field, ''])) as Record<LayoutField, string>;

export const EMPTY_PRODUCT: ProductForm = {
  name: '',
  annualRatePct: '',
  ivaRatePct: '16',
  openingFeePct: '0',
  openingFeeFinanced: false,
  terms: '',
  minAmount: '',
  maxAmount: '',
  maxAgeAtEnd: '75',
  moratoryRatePct: '0',
  lateFee: '0',
  renewalMinPaid: '3',
  renewalMaxDaysPastDue: '0',
  active: true,
};

export function emptyAgreement(today: string): AgreementForm {
  return {
    companyId: '',
    code: '',
    name: '',
    employerName: '',
    employerRfc: '',
    sector: '',
    frequency: '',
    maxDeductionPct: '30',
    remittanceLagDays: '10',
    payDay: '',
    paydayWeekday: '',
    cutOffLeadDays: '0',
    nonWorkingDays: '',
    renewalAsChange: false,
    validFrom: today,
    validTo: '',
    contacts: [],
    products: [{ ...EMPTY_PRODUCT }],
    layout: blankLayout(),
    active: true,
  };
}

/** A new agreement's layout, and the starting point of one whose stored layout cannot be read. */
const blankLayout = (): LayoutForm => ({
  format: 'csv',
  delimiter: ',',
  hasHeader: true,
  amountInCents: false,
  sheet: '',
  columns: blankFields(),
  starts: blankFields(),
  lengths: blankFields(),
});

const integer = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * "16/09/2026, 25/12/2026" → ["2026-09-16", "2026-12-25"]: dd/mm/aaaa dates separated by commas, semicolons or
 * spaces. Anything else is passed on as typed, for the contract to refuse with its message.
 */
export function parseNonWorkingDays(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((entry) => {
      const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(entry);
      return match ? `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}` : entry;
    });
}

/** A real calendar date written as ISO (the calendar preview skips a date still being typed). */
export const isIsoDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/** ["2026-09-16", "2026-12-25"] → "16/09/2026, 25/12/2026". */
export const formatNonWorkingDays = (days: readonly string[]) =>
  days.map((day) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`).join(', ');

export function toLayout(form: LayoutForm): Layout {
  const pick = (source: Record<LayoutField, string>) =>
    Object.fromEntries(LAYOUT_FIELDS.filter((field) => source[field].trim() !== '').map((field) => [field, Number(source[field])]));
  if (form.format === 'fixed') {
    const positions = Object.fromEntries(
      LAYOUT_FIELDS.filter((field) => form.starts[field].trim() !== '' || form.lengths[field].trim() !== '').map((field) => [
        field,
        { start: integer(form.starts[field]), length: integer(form.lengths[field]) },
      ]),
    );
    return { format: 'fixed', amountInCents: form.amountInCents, positions } as Layout;
  }
  const columns = pick(form.columns) as Extract<Layout, { format: 'csv' }>['columns'];
  return form.format === 'csv'
    ? { format: 'csv', delimiter: form.delimiter, hasHeader: form.hasHeader, amountInCents: form.amountInCents, columns }
    : {
        format: 'xlsx',
        ...(form.sheet.trim() ? { sheet: form.sheet.trim() } : {}),
        hasHeader: form.hasHeader,
        amountInCents: form.amountInCents,
        columns,
      };
}

export function toInput(form: AgreementForm): AgreementInput {
  return {
    companyId: form.companyId,
    code: form.code,
    name: form.name,
    employerName: form.employerName,
    employerRfc: form.employerRfc,
    sector: form.sector as AgreementInput['sector'],
    frequency: form.frequency as PayFrequency,
    maxDeductionPct: form.maxDeductionPct,
    remittanceLagDays: integer(form.remittanceLagDays),
    // Only the field of the chosen frequency is kept: a weekday means nothing to a mensual payroll, a pay day nothing to a weekly one.
    payDay: form.frequency === 'mensual' && form.payDay.trim() !== '' ? integer(form.payDay) : null,
    paydayWeekday:
      (form.frequency === 'semanal' || form.frequency === 'catorcenal') && form.paydayWeekday.trim() !== ''
        ? integer(form.paydayWeekday)
        : null,
    cutOffLeadDays: integer(form.cutOffLeadDays),
    nonWorkingDays: parseNonWorkingDays(form.nonWorkingDays),
    renewalAsChange: form.renewalAsChange,
    validFrom: form.validFrom,
    validTo: form.validTo.trim() === '' ? null : form.validTo,
    contacts: form.contacts,
    products: form.products.map(({ id, terms, maxAgeAtEnd, renewalMinPaid, renewalMaxDaysPastDue, ...product }) => ({
      ...(id ? { id } : {}),
      ...product,
      terms: terms
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((term) => Number(term)),
      maxAgeAtEnd: integer(maxAgeAtEnd),
      renewalMinPaid: integer(renewalMinPaid),
      renewalMaxDaysPastDue: integer(renewalMaxDaysPastDue),
    })),
    layout: toLayout(form.layout),
    active: form.active,
  };
}

export function fromDetail(detail: AgreementDetail): AgreementForm {
  return { ...detailFields(detail), layout: detail.layout === null ? blankLayout() : layoutForm(detail.layout) };
}

function layoutForm(layout: NonNullable<AgreementDetail['layout']>): LayoutForm {
  const columns = blankFields();
  const starts = blankFields();
  const lengths = blankFields();
  if (layout.format === 'fixed') {
    for (const field of LAYOUT_FIELDS) {
      const position = layout.positions[field];
      if (position) {
        starts[field] = String(position.start);
        lengths[field] = String(position.length);
      }
    }
  } else {
    for (const field of LAYOUT_FIELDS) {
      const column = layout.columns[field];
      if (column !== undefined) columns[field] = String(column);
    }
  }
  return {
    format: layout.format,
    delimiter: layout.format === 'csv' ? layout.delimiter : ',',
    hasHeader: layout.format === 'fixed' ? false : layout.hasHeader,
    amountInCents: layout.amountInCents ?? layout.format === 'fixed',
    sheet: layout.format === 'xlsx' ? (layout.sheet ?? '') : '',
    columns,
    starts,
    lengths,
  };
}

function detailFields(detail: AgreementDetail): Omit<AgreementForm, 'layout'> {
  return {
    companyId: detail.companyId,
    code: detail.code,
    name: detail.name,
    employerName: detail.employerName,
    employerRfc: detail.employerRfc,
    sector: detail.sector,
    frequency: detail.frequency,
    maxDeductionPct: detail.maxDeductionPct,
    remittanceLagDays: String(detail.remittanceLagDays),
    payDay: detail.payDay === null ? '' : String(detail.payDay),
    paydayWeekday: detail.paydayWeekday === null ? '' : String(detail.paydayWeekday),
    cutOffLeadDays: String(detail.cutOffLeadDays),
    nonWorkingDays: formatNonWorkingDays(detail.nonWorkingDays),
    renewalAsChange: detail.renewalAsChange,
    validFrom: detail.validFrom,
    validTo: detail.validTo ?? '',
    contacts: detail.contacts,
    products: detail.products
      .filter((product) => product.active)
      .map((product) => ({
        ...product,
        terms: product.terms.join(', '),
        maxAgeAtEnd: String(product.maxAgeAtEnd),
        renewalMinPaid: String(product.renewalMinPaid),
        renewalMaxDaysPastDue: String(product.renewalMaxDaysPastDue),
      })),
    active: detail.active,
  };
}

/** A contract path (`layout.positions.amount.start`) as the form's field name (`layout.starts.amount`). */
export function formFieldOf(path: string): string {
  const parts = path.split('.');
  if (parts[0] === 'layout' && parts[1] === 'positions' && parts.length === 4)
    return `layout.${parts[3] === 'start' ? 'starts' : 'lengths'}.${parts[2]}`;
  // What the layout lacks as a whole (it reads neither the folio nor the employee number) is said on its format.
  if (path === 'layout' || path === 'layout.columns' || path === 'layout.positions') return 'layout.format';
  // One text field holds every non-working day: a refused date is shown on it.
  if (parts[0] === 'nonWorkingDays') return 'nonWorkingDays';
  return path;
}

/**
 * The form's schema for the form pattern (useSchemaForm): the model turned into the contract's input and checked by
 * the contract's own schema, each refusal on the form field that holds it. Its output is what the API receives.
 */
export const agreementFormSchema = z.custom<AgreementForm>().transform((form, ctx) => {
  const parsed = agreementInputSchema.safeParse(toInput(form));
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues)
    ctx.addIssue({ code: 'custom', message: issue.message, path: formFieldOf(issue.path.map(String).join('.')).split('.') });
  return z.NEVER;
});
