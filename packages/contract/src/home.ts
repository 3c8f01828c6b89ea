import { z } from 'zod';
import { PAYMENT_FILE_STATUSES } from './payment-files';
import { AGING_BUCKETS, CREDIT_STATUSES, REQUEST_STATUSES } from './requests';

const money = z.string();
const countAndBalance = z.object({ count: z.number().int(), balance: money });

/**
 * One company's portfolio at its fecha flujo: computed when a day closes and when a payment file is applied or
 * reverted (a million credits take seconds to sum, the home must answer at once), kept in portfolio_figures.
 */
export const portfolioFiguresSchema = z.object({
  portfolio: z.object({
    /** Credits not liquidado. */
    count: z.number().int(),
    outstandingBalance: money,
    overdueBalance: money,
    byStatus: z.array(countAndBalance.extend({ status: z.enum(CREDIT_STATUSES) })),
    byBucket: z.array(countAndBalance.extend({ bucket: z.enum(AGING_BUCKETS) })),
  }),
  /** From the first day of the fecha flujo's month through the fecha flujo. */
  collections: z.object({
    from: z.string(),
    through: z.string(),
    expected: money,
    received: money,
  }),
  transit: countAndBalance,
});
export type PortfolioFigures = z.infer<typeof portfolioFiguresSchema>;

/**
 * The home: the portfolio figures of the user's company (SA: every company, summed) and, read live, the pending
 * requests and the last payment files. Each figure is what the screen behind it shows for the same filter.
 */
export const homeSummarySchema = portfolioFiguresSchema.extend({
  /** Each visible company's business date; the figures are taken at them. */
  businessDates: z.array(z.object({ company: z.string(), businessDate: z.string() })),
  /** When the portfolio figures were computed (the oldest company's); null when they were just computed. */
  figuresAt: z.string().nullable(),
  /** Requests still moving: capturada, en validación, aprobada. */
  pendingRequests: z.array(z.object({ status: z.enum(REQUEST_STATUSES), count: z.number().int() })),
  lastFiles: z.array(
    z.object({
      id: z.string(),
      fileName: z.string(),
      agreement: z.string(),
      discountDate: z.string(),
      status: z.enum(PAYMENT_FILE_STATUSES),
      appliedAmount: money,
      uploadedAt: z.string(),
    }),
  ),
});
export type HomeSummary = z.infer<typeof homeSummarySchema>;

/** Requests that still wait for someone: the home counts these. */
export const PENDING_REQUEST_STATUSES = [
  'capturada',
  'en validación',
  'aprobada',
] as const satisfies readonly (typeof REQUEST_STATUSES)[number][];
