import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from 'jose';
import { inject } from 'vitest';
import { openDatabase, type Database, type Db, type Tx } from '../db/client';
import { asSystem } from '../db/scope';
import { scratchDatabase } from '../db/scratch';
import { buildApp, type App } from '../app';
import type { Clock } from '../deps';
import { DEFAULT_DAILY_MINIMUM_WAGE } from '../config';
import { jwtTokenVerifier } from '../http/auth';
import { API_SCOPE, GRANT_CLAIM, createEmbeddedIdp } from '../idp/idp';
import type { Logger } from 'pino';
import type { IdpRateLimits } from '../idp/rate-limits';
import { takeSnapshot } from './snapshot';
import { startJobQueue } from '../jobs/job-queue';
import type { FailureLog } from '../jobs/tracked-job';
import { JOB_QUEUES, startWorkers } from '../workers';

export type Engine = 'pglite' | 'postgres';

/** The engines API tests run on: PGlite always, PostgreSQL when it answered at the start of the run. */
export const ENGINES: Engine[] = inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The engine a feature's behaviour is proven on: one is enough, and a second run of every route test was a third of
 * the suite's time (docs/measurements.md). PostgreSQL, production's engine, when it answered; PGlite otherwise.
 * Whatever can differ between the engines runs on both (ENGINES): company isolation and access (security/), the
 * database layer (db/), the sign-in provider (idp/), the test reset itself; and PGlite, `npm start`'s engine, also
 * carries the browser tests end to end.
 */
export const BEHAVIOUR_ENGINES: Engine[] = [ENGINES.at(-1)!];

export const TEST_ISSUER = 'https://idp.test/oidc';
export const TEST_AUDIENCE = 'https://portal.test/api';
export const TEST_PUBLIC_URL = 'http://localhost';

export interface MutableClock extends Clock {
  set(date: Date | string): void;
  advance(milliseconds: number): void;
}

export function fixedClock(start: Date | string = '2026-11-23T15:00:00.000Z'): MutableClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (date) => {
      current = new Date(date);
    },
    advance: (milliseconds) => {
      current = new Date(current.getTime() + milliseconds);
    },
  };
}

let signingKey: Promise<{ privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; publicJwk: JWK }> | null = null;
function testKey() {
  signingKey ??= generateKeyPair('RS256').then(async ({ privateKey, publicKey }) => ({
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256', use: 'sig' },
  }));
  return signingKey;
}

/** An access token shaped like the embedded provider's: RS256, `typ: at+jwt`, issuer, audience, email. */
export async function signToken(
  email: string,
  options: { issuer?: string; audience?: string; expiresIn?: string; typ?: string } = {},
): Promise<string> {
  const { privateKey } = await testKey();
  return new SignJWT({ email, client_id: 'portal-web', scope: 'openid email' })
    .setProtectedHeader({ alg: 'RS256', typ: options.typ ?? 'at+jwt', kid: 'test' })
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(options.audience ?? TEST_AUDIENCE)
    .setSubject(`sub-${email}`)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(privateKey);
}

export interface TestContext {
  app: App;
  db: Db;
  clock: MutableClock;
  engine: Engine;
  /** Fixtures and checks across companies, as the system (row-level security limits `db` to nothing otherwise). */
  system<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** `Authorization` header for a signed-in user. */
  as(email: string): Promise<{ authorization: string }>;
  /**
   * Puts the database back as it was when the app was ready (every table and sequence) and the clock back to its start,
   * so one app and database serve a whole test file, each test starting from the same state. Only with `snapshot`.
   */
  reset(): Promise<void>;
  /** Closes the database under the running app, as when PostgreSQL goes down. */
  closeDatabase(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh, migrated and seeded database of the engine (a copy of the run's template), and its URL on PostgreSQL. */
export async function openEngine(engine: Engine): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const dump = await readFile(inject('pgliteDump'));
    const database = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([dump]) });
    return { database, drop: async () => undefined };
  }
  const template = inject('postgresTemplate')!;
  // Named after the run's template so the global teardown finds and drops it even if a test crashed.
  const name = `${template.replace('portal_tpl_', 'portal_t_')}_${randomBytes(4).toString('hex')}`;
  return scratchDatabase(inject('postgresAdminUrl'), name, template);
}

/**
 * A throwaway PostgreSQL database for tests that start their own processes or migrate: empty, or a copy of the run's
 * migrated and seeded template. Named like the others, so the global teardown drops it even after a crash.
 */
export async function postgresScratch(from: 'empty' | 'template'): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const template = inject('postgresTemplate')!;
  const name = `${template.replace('portal_tpl_', 'portal_t_')}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database ${name}${from === 'template' ? ` template ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** A fresh, seeded database on the given engine and the app built on it, as `main.ts` builds it. */
export async function createTestApp(
  engine: Engine,
  options: {
    clock?: MutableClock;
    embeddedIdp?: { print: (line: string) => void; rateLimits?: Partial<IdpRateLimits> };
    /** TRUST_PROXY, as main.ts passes it; off by default like the configuration. */
    trustProxy?: boolean;
    /** A built SPA folder to serve, as `npm start` does. */
    webDist?: string;
    /** DAILY_MINIMUM_WAGE, as main.ts passes it; the configuration's default (2026) unless given. */
    dailyMinimumWage?: string;
    /** Copies the database once the app is ready, for `reset()` before each test (~0.1–0.2 s, a reset ~20 ms). */
    snapshot?: boolean;
    /** Data the file's tests share (e.g. the demo portfolio), written once before the snapshot that `reset()` restores. */
    seed?: (db: Db, now: Date) => Promise<void>;
    /** Starts the job queue (pg-boss) and its workers, as main.ts does. */
    jobs?: boolean;
    /** Where the workers log a failed run's detail under its reference (main.ts: the process logger); stderr by default. */
    failureLog?: FailureLog;
    /** The process logger, as main.ts passes it (to read what a request logs); none by default. */
    logger?: Logger;
    /** METRICS_TOKEN, as main.ts passes it; /api/metrics answers 404 unless given. */
    metricsToken?: string;
    /** How long a principal is reused, by the test's clock (main.ts: 5 s); 0 by default: every request looks it up. */
    principalTtlMs?: number;
    /** As with SMTP_URL: messages wait in the outbox for a sender instead of being printed. */
    deliverMail?: boolean;
  } = {},
): Promise<TestContext> {
  const { database, drop, url } = await openEngine(engine);
  const clock = options.clock ?? fixedClock();
  const jobs = options.jobs ? await startJobQueue(database, url, JOB_QUEUES) : undefined;
  if (jobs) await startWorkers(jobs, database, () => clock.now(), options.failureLog);
  const { publicJwk } = await testKey();
  // With the real embedded provider, tokens come from it (see idp.test.ts); otherwise from the test key.
  const idp = options.embeddedIdp
    ? await createEmbeddedIdp({
        db: database.db,
        issuer: TEST_ISSUER,
        publicUrl: TEST_PUBLIC_URL,
        clientId: 'portal-web',
        audience: TEST_AUDIENCE,
        clock,
        log: options.logger ?? ({ info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger),
        print: options.embeddedIdp.print,
        ...(options.deliverMail ? { deliverMail: true } : {}),
        trustProxy: options.trustProxy ?? false,
        ...(options.embeddedIdp.rateLimits ? { rateLimits: options.embeddedIdp.rateLimits } : {}),
      })
    : undefined;
  const app = await buildApp({
    db: database.db,
    driver: database.driver,
    clock,
    verifier: jwtTokenVerifier({
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      keys: idp ? idp.keys : createLocalJWKSet({ keys: [publicJwk] }),
      requireAtJwt: true,
      ...(idp ? { grantClaim: GRANT_CLAIM } : {}),
    }),
    ...(idp ? { idp: idp.plugin } : {}),
    print: options.embeddedIdp?.print ?? (() => undefined),
    trustProxy: options.trustProxy ?? false,
    dailyMinimumWage: options.dailyMinimumWage ?? DEFAULT_DAILY_MINIMUM_WAGE,
    ...(jobs ? { jobs } : {}),
    ...(options.webDist ? { webDist: options.webDist } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    ...(options.principalTtlMs ? { principalTtlMs: options.principalTtlMs } : {}),
    checkEveryAnswer: true,
    ...(options.deliverMail ? { deliverMail: true } : {}),
    authConfig: {
      issuer: TEST_ISSUER,
      clientId: 'portal-web',
      audience: TEST_AUDIENCE,
      scope: `openid email profile ${API_SCOPE}`,
      embedded: true,
      passwordResetUrl: null,
    },
  });
  await app.ready();
  // After app.ready(): what the app wrote while starting (the provider's keys) is part of the state tests start from.
  if (options.seed) await options.seed(database.db, clock.now());
  const snapshot = options.snapshot ? await takeSnapshot(database.db) : null;
  const start = clock.now();
  let databaseOpen = true;
  const closeDatabase = async () => {
    if (databaseOpen) await database.close();
    databaseOpen = false;
  };
  return {
    app,
    db: database.db,
    clock,
    engine,
    system: (work) => asSystem(database.db, work),
    as: async (email) => ({ authorization: `Bearer ${await signToken(email)}` }),
    reset: async () => {
      if (!snapshot) throw new Error('reset() needs createTestApp(engine, { snapshot: true })');
      await snapshot.restore();
      clock.set(start);
    },
    closeDatabase,
    close: async () => {
      await app.close();
      await jobs?.stop();
      await closeDatabase();
      await drop();
    },
  };
}
