import type { RouteDefinition } from './route-table';
import { agreementRoutes } from './routes/agreements';
import { creditRoutes } from './routes/credits';
import { businessDateRoutes } from './routes/business-date';
import { deductionOrderRoutes } from './routes/deduction-orders';
import { employerStatementRoutes } from './routes/employer-statement';
import { healthRoutes } from './routes/health';
import { homeRoutes } from './routes/home';
import { labelRoutes } from './routes/labels';
import { letterRoutes } from './routes/letters';
import { outboxRoutes } from './routes/outbox';
import { paymentFileRoutes, paymentRoutes } from './routes/payment-files';
import { reportDefinitionRoutes, reportRunRoutes } from './routes/reports';
import { preRequestRoutes } from './routes/pre-requests';
import { profileRoutes } from './routes/profiles';
import { requestRoutes } from './routes/requests';
import { sessionRoutes } from './routes/session';
import { paymentOrderRoutes, refundRoutes } from './routes/treasury';
import { userRoutes } from './routes/users';

/** The whole route table, by area: every endpoint of the API, each declared once in routes/<area>.ts. */
export const API_ROUTES = {
  health: healthRoutes,
  session: sessionRoutes,
  users: userRoutes,
  profiles: profileRoutes,
  outbox: outboxRoutes,
  agreements: agreementRoutes,
  preRequests: preRequestRoutes,
  requests: requestRoutes,
  credits: creditRoutes,
  businessDate: businessDateRoutes,
  paymentFiles: paymentFileRoutes,
  payments: paymentRoutes,
  labels: labelRoutes,
  home: homeRoutes,
  letters: letterRoutes,
  reportDefinitions: reportDefinitionRoutes,
  reportRuns: reportRunRoutes,
  deductionOrders: deductionOrderRoutes,
  paymentOrders: paymentOrderRoutes,
  refunds: refundRoutes,
  employerStatement: employerStatementRoutes,
} as const;

export const ALL_ROUTES: readonly RouteDefinition[] = Object.values(API_ROUTES).flatMap((area) => Object.values(area) as RouteDefinition[]);
