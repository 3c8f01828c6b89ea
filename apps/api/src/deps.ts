import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AuthConfig } from '@portal/contract';
import type { Db } from './db/client';
import type { TokenVerifier } from './http/auth';
import type { JobQueue } from './jobs/job-queue';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Everything the app needs is passed in, so a test hands in PGlite, a fixed clock and its own token keys. */
export interface AppDeps {
  db: Db;
  driver: 'pglite' | 'postgres';
  clock: Clock;
  verifier: TokenVerifier;
  authConfig: AuthConfig;
  /** The embedded OIDC provider, mounted under /oidc; absent with an external provider. */
  idp?: FastifyPluginAsync;
  /** Where the embedded mode "mails" invitation links (besides the outbox); the console by default. */
  print?: (line: string) => void;
  /** SMTP_URL is set: messages wait in the outbox for a sender (modules/outbox/mail-delivery.ts) instead of being printed. */
  deliverMail?: boolean;
  /** The built SPA; absent in API tests. */
  webDist?: string;
  /** The process's pino logger (request logs carry the request id); none in tests. */
  logger?: FastifyBaseLogger;
  /** Whose X-Forwarded-* headers to believe (TRUST_PROXY); none by default. */
  trustProxy?: boolean | number | string[];
  /** The general daily minimum wage of the year (DAILY_MINIMUM_WAGE), pesos: the floor of the pay left after deductions. */
  dailyMinimumWage: string;
  /** The job queue (pg-boss) for work that outlives a request; without it such requests answer 503. */
  jobs?: JobQueue;
  /**
   * How long a signed-in user's principal (company, profile, permissions) is reused before it is looked up again, in
   * milliseconds; 0 or absent: every request looks it up (tests, where fixtures change users directly in the database).
   */
  principalTtlMs?: number;
  /** Write every compiled answer the zod way too and refuse a difference (the tests; answer-serializer.ts). */
  checkEveryAnswer?: boolean;
  /** REPORT_RETENTION_DAYS: how many days a report run's file is kept (7 when absent). */
  reportRetentionDays?: number;
  /** METRICS_TOKEN: with it, /api/metrics answers its bearer in Prometheus format; without it, 404. */
  metricsToken?: string;
  /**
   * The embedded database's online copy (db/backup.ts): POST /api/backup answers `dump()` to the bearer of `token`;
   * absent (PostgreSQL), 404.
   */
  embeddedBackup?: { token: string; dump(): Promise<Blob> };
}
