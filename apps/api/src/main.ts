import { createRemoteJWKSet } from 'jose';
import type { AuthConfig } from '@portal/contract';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { checkCompanyIsolation } from './db/scope';
import { DEMO_ACCOUNTS, isEmpty, seedBootstrapAdmin, seedDemo } from './seed/seed';
import { seedDemoPortfolio } from './seed/seed-portfolio';
import { seedTreasury } from './seed/seed-treasury';
import { buildApp } from './app';
import { systemClock } from './deps';
import { jwtTokenVerifier, type TokenVerifier } from './http/auth';
import { normalizeStoredTemplates } from './modules/letters/letters.service';
import { API_SCOPE, GRANT_CLAIM, createEmbeddedIdp } from './idp/idp';
import { startJobQueue } from './jobs/job-queue';
import { JOB_QUEUES, startWorkers } from './workers';
import { loggerFailureLog } from './jobs/tracked-job';
import { assertSchemaCurrent, SchemaMismatchError } from './db/migrate';
import { createLogger } from './http/logging';
import { closeHttp, createLifecycle } from './lifecycle';
import { startMailDelivery } from './modules/outbox/mail-delivery';
import { backupToken, writeControlFile } from './db/backup';
import { smtpTransport } from './modules/outbox/smtp-transport';

/** How long SIGTERM may take (requests in flight, then jobs, then the database) before the process ends anyway. */
const SHUTDOWN_TIMEOUT_MS = 25_000;
/**
 * How long a user's principal is reused between requests: a deactivation or a profile change made through another
 * process takes effect there within this time (at once in the process that made it).
 */
const PRINCIPAL_TTL_MS = 5_000;
/** How long a verified access token is taken as verified (http/auth.ts): a key the provider withdraws, within this time. */
const TOKEN_REUSE_MS = 5_000;

const started = performance.now();

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const log = createLogger(config.logLevel);

async function discoverJwksUri(issuer: string): Promise<URL> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`el proveedor ${issuer} respondió ${response.status} a su descubrimiento OIDC`);
  const discovery = (await response.json()) as { jwks_uri?: string };
  if (!discovery.jwks_uri) throw new Error(`el proveedor ${issuer} no publica jwks_uri`);
  return new URL(discovery.jwks_uri);
}

async function start(): Promise<void> {
  let database: Database;
  try {
    if (config.database.kind === 'postgres') {
      database = await openDatabase(config.database, { migrate: config.migrateOnStart });
      // Migrated or not, serve only the schema this code was written for (a newer release may have migrated it).
      await assertSchemaCurrent(config.database.url).catch(async (error: unknown) => {
        await database.close();
        throw error;
      });
    } else {
      database = await openDatabase({ kind: 'pglite', dataDir: config.database.dataDir }, { migrate: true });
    }
  } catch (error) {
    if (error instanceof SchemaMismatchError) {
      console.error(`No se inició el portal: ${error.message}`);
      process.exit(1);
    }
    const where = config.database.kind === 'postgres' ? 'DATABASE_URL' : `DATA_DIR (${config.database.dataDir})`;
    console.error(`No se pudo abrir la base de datos de ${where}: ${(error as Error).message}`);
    process.exit(1);
  }
  // Company scope is the database's job: a company-owned table without its policy would leak, so do not serve at all.
  const unprotected = await checkCompanyIsolation(database.db);
  if (unprotected.length > 0) {
    console.error(`Tablas de empresa sin aislamiento: ${unprotected.map((item) => `${item.table} (${item.problem})`).join('; ')}`);
    process.exit(1);
  }

  const firstStart = await isEmpty(database.db);
  if (firstStart && config.seedDemo) {
    await seedDemo(database.db);
    await seedDemoPortfolio(database.db, systemClock.now());
    await seedTreasury(database.db, systemClock.now());
  } else if (firstStart && config.bootstrapAdminEmail) await seedBootstrapAdmin(database.db, config.bootstrapAdminEmail);

  let verifier: TokenVerifier;
  let authConfig: AuthConfig;
  let idp;
  if (config.oidc.kind === 'embedded') {
    idp = await createEmbeddedIdp({
      db: database.db,
      issuer: config.oidc.issuer,
      publicUrl: config.publicUrl,
      clientId: config.oidc.clientId,
      audience: config.oidc.audience,
      accessTokenTtl: config.oidc.accessTokenTtl,
      clock: systemClock,
      log: log.child({ module: 'idp' }),
      trustProxy: config.trustProxy !== false,
      deliverMail: config.mail !== null,
    });
    verifier = jwtTokenVerifier({ ...config.oidc, keys: idp.keys, requireAtJwt: true, reuseMs: TOKEN_REUSE_MS, grantClaim: GRANT_CLAIM });
    authConfig = { ...config.oidc, scope: `openid email profile ${API_SCOPE}`, embedded: true, passwordResetUrl: null };
  } else {
    const jwksUri = await discoverJwksUri(config.oidc.issuer).catch((error: Error) => {
      console.error(`No se pudo consultar OIDC_ISSUER: ${error.message}`);
      process.exit(1);
    });
    verifier = jwtTokenVerifier({ ...config.oidc, keys: createRemoteJWKSet(jwksUri), reuseMs: TOKEN_REUSE_MS });
    authConfig = {
      issuer: config.oidc.issuer,
      clientId: config.oidc.clientId,
      audience: config.oidc.audience,
      scope: config.oidc.scope,
      embedded: false,
      passwordResetUrl: config.oidc.passwordResetUrl,
    };
  }

  // Jobs queued before a stop (or interrupted by it) are picked up again here, by this process or any other.
  const jobs = await startJobQueue(database, config.database.kind === 'postgres' ? config.database.url : undefined, JOB_QUEUES);
  if (config.jobWorkers) await startWorkers(jobs, database, () => systemClock.now(), loggerFailureLog(log.child({ module: 'jobs' })));
  // Every process with workers sends mail; the outbox's claim gives each message to one of them.
  const mailLog = log.child({ module: 'mail' });
  const mail =
    config.mail && config.jobWorkers
      ? startMailDelivery(database.db, smtpTransport(config.mail.smtpUrl), {
          now: () => systemClock.now(),
          fromAddress: config.mail.fromAddress,
          log: mailLog,
          onError: (error) => mailLog.error({ err: error }, 'mail delivery round failed'),
        })
      : null;

  // The embedded database has one process: `npm run db:backup` asks this one for its copy (db/backup.ts).
  const embeddedBackup =
    database.pglite && config.database.kind === 'pglite'
      ? { token: backupToken(), dataDir: config.database.dataDir, dump: database.pglite.dumpDataDir.bind(database.pglite, 'gzip') }
      : null;

  const app = await buildApp({
    jobs,
    db: database.db,
    driver: database.driver,
    clock: systemClock,
    verifier,
    authConfig,
    ...(idp ? { idp: idp.plugin } : {}),
    webDist: config.webDist,
    logger: log,
    trustProxy: config.trustProxy,
    dailyMinimumWage: config.dailyMinimumWage,
    reportRetentionDays: config.reportRetentionDays,
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    principalTtlMs: PRINCIPAL_TTL_MS,
    deliverMail: config.mail !== null,
    ...(embeddedBackup ? { embeddedBackup } : {}),
  });

  const lifecycle = createLifecycle({ log, timeoutMs: SHUTDOWN_TIMEOUT_MS });
  lifecycle.onShutdown('http', () => closeHttp(app));
  // The job queue stops after the last request that could enqueue, before the database it works on; a job it was
  // running is taken up again by this or another process after its expiry.
  lifecycle.onShutdown('jobs', () => jobs.stop());
  // A message being sent is finished (or left to its lease) before the database closes.
  if (mail) lifecycle.onShutdown('mail', () => mail.stop());
  lifecycle.onShutdown('database', () => database.close());
  process.once('SIGINT', () => void lifecycle.shutdown('SIGINT'));
  process.once('SIGTERM', () => void lifecycle.shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // Templates stored before backgrounds were normalized get theirs now, each in a worker under the upload's budget.
  const templateLog = log.child({ module: 'letters' });
  void normalizeStoredTemplates(database.db, templateLog).catch((error: unknown) =>
    templateLog.error({ err: error }, 'normalizing stored letter templates failed'),
  );
  if (embeddedBackup) {
    const reachable =
      config.host === '0.0.0.0'
        ? '127.0.0.1'
        : config.host === '::'
          ? '[::1]'
          : config.host.includes(':')
            ? `[${config.host}]`
            : config.host;
    const removeControlFile = await writeControlFile(embeddedBackup.dataDir, `http://${reachable}:${config.port}`, embeddedBackup.token);
    lifecycle.onShutdown('control file', removeControlFile);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const lines = [
    '',
    `Portal listo en ${config.publicUrl} (${seconds} s; base de datos: ${database.driver === 'pglite' ? config.database.kind === 'pglite' && config.database.dataDir : 'PostgreSQL'})`,
  ];
  if (config.oidc.kind === 'embedded' && config.seedDemo) {
    lines.push(firstStart ? 'Datos demo creados. Usuarios demo:' : 'Usuarios demo (si no cambiaste sus contraseñas):');
    const profileWidth = Math.max(...DEMO_ACCOUNTS.map((account) => account.profile.length));
    const emailWidth = Math.max(...DEMO_ACCOUNTS.map((account) => account.email.length));
    for (const account of DEMO_ACCOUNTS) {
      lines.push(`  ${account.profile.padEnd(profileWidth)}  ${account.email.padEnd(emailWidth)}  ${account.password}`);
    }
  }
  console.log(lines.join('\n'));
}

start().catch((error: unknown) => {
  console.error(`No se pudo iniciar el portal: ${(error as Error).message}`);
  log.error({ err: error }, 'start failed');
  process.exit(1);
});
