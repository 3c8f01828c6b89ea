import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_REPORT_RETENTION_DAYS } from '@portal/contract';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Everything the process reads from its environment, validated once at start.
 * Embedded mode (no DATABASE_URL, no OIDC_*): PGlite in DATA_DIR and the embedded identity provider.
 */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  logLevel: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  oidc:
    | { kind: 'embedded'; issuer: string; clientId: string; audience: string; accessTokenTtl: number }
    | {
        kind: 'external';
        issuer: string;
        clientId: string;
        audience: string;
        emailClaim: string;
        /** What the browser asks the provider for (OIDC_SCOPE): Entra ID, for one, issues a token for the API only for its scope. */
        scope: string;
        passwordResetUrl: string | null;
      };
  seedDemo: boolean;
  bootstrapAdminEmail: string | null;
  webDist: string;
  /**
   * Which proxies' X-Forwarded-For/-Host/-Proto headers are believed (Fastify's `trustProxy`): none by default, every
   * one (`true`), the nearest N hops, or the listed addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string[];
  /**
   * The general daily minimum wage in force (pesos, CONASAMI general zone; 2026: 315.04). It changes every January:
   * the pay left after all deductions may not fall below it times the period's days (docs/domain.md, "Origination").
   */
  dailyMinimumWage: string;
  /**
   * PostgreSQL: apply pending migrations at start (behind the advisory lock of migrate.ts) or only check that the
   * database is at the code's migration and refuse to start otherwise (`npm run migrate` does the migrating).
   * PGlite always migrates at start.
   */
  migrateOnStart: boolean;
  /** The bearer token /metrics answers; null: no /metrics. */
  metricsToken: string | null;
  /**
   * Whether this process runs background jobs (day closes) besides serving requests. Every process queues them; with
   * false it leaves running them to the processes that do (e.g. web-only replicas beside a worker).
   */
  jobWorkers: boolean;
  /** How many days a report run's file is kept before it is deleted (REPORT_RETENTION_DAYS, 1–365). */
  reportRetentionDays: number;
  /**
   * SMTP_URL and MAIL_FROM: mail is delivered from the outbox through this server, from this address (the display name
   * is the company's). Null: the embedded behaviour, messages kept in the portal and printed on the console.
   */
  mail: { smtpUrl: string; fromAddress: string } | null;
}

/** The 2026 general daily minimum wage (CONASAMI), the default of DAILY_MINIMUM_WAGE. */
export const DEFAULT_DAILY_MINIMUM_WAGE = '315.04';

export class ConfigError extends Error {}

const OIDC_VARS = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_AUDIENCE'] as const;

function fail(variable: string, problem: string, value?: string): never {
  const received = value === undefined ? '' : ` (recibido: "${value}")`;
  throw new ConfigError(`Configuración inválida: ${variable} ${problem}${received}`);
}

function parseUrl(variable: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(variable, `debe ser una URL válida (${protocols.join(', ')})`, value);
  }
  if (!protocols.includes(url.protocol)) fail(variable, `debe empezar con ${protocols.join(' o ')}`, value);
  return value.replace(/\/+$/, '');
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const valid = (entry: string) => {
    const [address = '', prefix, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return false;
    return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
  };
  if (entries.length === 0 || !entries.every(valid)) {
    fail('TRUST_PROXY', 'debe ser false, true, un número de saltos (1 a 10) o una lista de IP/CIDR separada por comas', value);
  }
  return entries;
}

const booleanText = z.enum(['true', 'false', '1', '0']);

/** Connections each API process keeps to PostgreSQL unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 20;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  /** A whole number from `min` to `max`, or `fallback` when unset; refused in the words "un número de <what>". */
  const readWholeNumber = (name: string, fallback: number, min: number, max: number, what: string): number => {
    const text = read(name) ?? String(fallback);
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
      fail(name, `debe ser un número de ${what} entre ${min} y ${max}`, text);
    return Number(text);
  };

  const port = readWholeNumber('PORT', 3000, 1, 65535, 'puerto');
  const host = read('HOST') ?? 'localhost';
  const publicUrl = parseUrl('PUBLIC_URL', read('PUBLIC_URL') ?? `http://localhost:${port}`, ['http:', 'https:']);

  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    fail('LOG_LEVEL', 'debe ser fatal, error, warn, info, debug, trace o silent', logLevel);
  }

  const databaseUrl = read('DATABASE_URL');
  const poolSize = readWholeNumber('DATABASE_POOL_SIZE', DEFAULT_POOL_SIZE, 2, 200, 'conexiones');
  const database: Config['database'] = databaseUrl
    ? { kind: 'postgres', url: parseUrl('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']), poolSize }
    : { kind: 'pglite', dataDir: path.resolve(REPO_ROOT, read('DATA_DIR') ?? 'data') };

  const given = OIDC_VARS.filter((name) => read(name) !== undefined);
  let oidc: Config['oidc'];
  if (given.length === 0) {
    const ttlText = read('ACCESS_TOKEN_TTL') ?? '900';
    const accessTokenTtl = Number(ttlText);
    if (!Number.isInteger(accessTokenTtl) || accessTokenTtl < 90 || accessTokenTtl > 86_400) {
      fail('ACCESS_TOKEN_TTL', 'debe ser un número de segundos entre 90 y 86400', ttlText);
    }
    oidc = { kind: 'embedded', issuer: `${publicUrl}/oidc`, clientId: 'portal-web', audience: `${publicUrl}/api`, accessTokenTtl };
  } else {
    const missing = OIDC_VARS.find((name) => read(name) === undefined);
    if (missing) fail(missing, `falta: con un proveedor externo se requieren ${OIDC_VARS.join(', ')}`);
    const resetUrl = read('OIDC_PASSWORD_RESET_URL');
    const scope = (read('OIDC_SCOPE') ?? 'openid email profile').split(/\s+/).join(' ');
    if (!scope.split(' ').includes('openid')) fail('OIDC_SCOPE', 'debe incluir openid (p. ej. "openid email profile")', scope);
    oidc = {
      kind: 'external',
      issuer: parseUrl('OIDC_ISSUER', read('OIDC_ISSUER')!, ['https:', 'http:']),
      clientId: read('OIDC_CLIENT_ID')!,
      audience: read('OIDC_AUDIENCE')!,
      emailClaim: read('OIDC_EMAIL_CLAIM') ?? 'email',
      scope,
      passwordResetUrl: resetUrl ? parseUrl('OIDC_PASSWORD_RESET_URL', resetUrl, ['https:', 'http:']) : null,
    };
  }

  /** A true/false setting (also 1/0), or `fallback` when unset. */
  const readBoolean = (name: string, fallback: boolean): boolean => {
    const text = read(name);
    if (text === undefined) return fallback;
    if (!booleanText.safeParse(text).success) fail(name, 'debe ser true o false', text);
    return text === 'true' || text === '1';
  };

  // Demo data only where nobody could mistake it for real data: the embedded database, unless asked.
  const seedDemo = readBoolean('SEED_DEMO', database.kind === 'pglite');

  const bootstrapAdminEmail = read('BOOTSTRAP_ADMIN_EMAIL') ?? null;
  if (bootstrapAdminEmail !== null && !z.email().safeParse(bootstrapAdminEmail).success) {
    fail('BOOTSTRAP_ADMIN_EMAIL', 'debe ser un correo electrónico', bootstrapAdminEmail);
  }

  const trustProxy = parseTrustProxy(read('TRUST_PROXY'));

  const dailyMinimumWage = read('DAILY_MINIMUM_WAGE') ?? DEFAULT_DAILY_MINIMUM_WAGE;
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(dailyMinimumWage) || Number(dailyMinimumWage) <= 0) {
    fail(
      'DAILY_MINIMUM_WAGE',
      'debe ser el salario mínimo diario en pesos, mayor que 0 y con a lo más 2 decimales (p. ej. 315.04)',
      dailyMinimumWage,
    );
  }

  const migrateOnStart = readBoolean('MIGRATE_ON_START', true);
  const jobWorkers = readBoolean('JOB_WORKERS', true);

  const retentionText = read('REPORT_RETENTION_DAYS') ?? String(DEFAULT_REPORT_RETENTION_DAYS);
  if (!/^\d{1,3}$/.test(retentionText) || Number(retentionText) < 1 || Number(retentionText) > 365) {
    fail('REPORT_RETENTION_DAYS', 'debe ser un número de días entre 1 y 365', retentionText);
  }
  const reportRetentionDays = Number(retentionText);

  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^\S{24,}$/.test(metricsToken)) {
    fail('METRICS_TOKEN', 'debe tener al menos 24 caracteres sin espacios (p. ej. openssl rand -hex 24)');
  }

  const mail = readMail(read);

  return {
    port,
    host,
    publicUrl,
    logLevel,
    database,
    oidc,
    seedDemo,
    bootstrapAdminEmail,
    webDist: path.resolve(REPO_ROOT, 'apps/web/dist'),
    trustProxy,
    dailyMinimumWage,
    migrateOnStart,
    metricsToken,
    jobWorkers,
    reportRetentionDays,
    mail,
  };
}

/** SMTP_URL and MAIL_FROM go together. The URL is never echoed: it may carry the server's password. */
function readMail(read: (name: string) => string | undefined): Config['mail'] {
  const smtpUrl = read('SMTP_URL');
  const fromAddress = read('MAIL_FROM');
  if (smtpUrl === undefined && fromAddress === undefined) return null;
  if (smtpUrl === undefined) fail('SMTP_URL', 'falta: MAIL_FROM sólo sirve con un servidor de correo (smtp://… o smtps://…)');
  if (fromAddress === undefined) fail('MAIL_FROM', 'falta: con SMTP_URL se requiere la dirección remitente (p. ej. avisos@empresa.mx)');
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    fail('SMTP_URL', 'debe ser una URL como smtp://usuario:contraseña@servidor:587 o smtps://usuario:contraseña@servidor:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    fail('SMTP_URL', `debe empezar con smtp:// o smtps:// (recibido: ${url.protocol}//…)`);
  if (!url.hostname) fail('SMTP_URL', 'debe nombrar el servidor de correo');
  if (!z.email().safeParse(fromAddress).success) fail('MAIL_FROM', 'debe ser un correo electrónico', fromAddress);
  return { smtpUrl, fromAddress };
}
