import pg from 'pg';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair } from 'jose';
import { buildApp, type App } from '../src/app';
import { systemClock } from '../src/deps';
import { DEFAULT_DAILY_MINIMUM_WAGE } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import { scratchDatabase } from '../src/db/scratch';
import { jwtTokenVerifier } from '../src/http/auth';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throwaway PostgreSQL database on BENCH_DATABASE_URL's server (default the local one), or null when none answers. */
export async function postgresDatabase(): Promise<{
  database: Database;
  reused: boolean;
  /** The database's address as its owner (the server's administrator), for a session of one's own. */
  ownerUrl: string;
  asOwner: <Row>(statement: string) => Promise<Row[]>;
  analyze: () => Promise<void>;
  drop: () => Promise<void>;
} | null> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  // BENCH_KEEP_DATABASE names a database an earlier run kept (BENCH_KEEP=1): reused as it is, and kept again.
  const kept = process.env.BENCH_KEEP_DATABASE;
  const name = kept ?? `portal_bench_${process.pid}`;
  if (!kept) await admin.query(`drop database if exists ${name}`);
  await admin.end();
  const ownerUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const { database, drop } = kept
    ? { database: await openDatabase({ kind: 'postgres', url: ownerUrl }, { migrate: true }), drop: async () => undefined }
    : await scratchDatabase(adminUrl, name);
  /** Runs statements as the database's owner (the API's pool acts as the application's role, which owns nothing). */
  const asOwner = async <Row>(statement: string): Promise<Row[]> => {
    const owner = new pg.Client({ connectionString: ownerUrl });
    await owner.connect();
    try {
      return (await owner.query(statement)).rows as Row[];
    } finally {
      await owner.end();
    }
  };
  return {
    database,
    ownerUrl,
    asOwner,
    analyze: async () => {
      await asOwner('analyze');
    },
    reused: kept !== undefined,
    drop: async () => {
      await database.close();
      if (process.env.BENCH_KEEP === '1') console.log(`Base conservada: BENCH_KEEP_DATABASE=${name}`);
      else await drop();
    },
  };
}

const ISSUER = 'https://bench.local/oidc';
const AUDIENCE = 'https://bench.local/api';

/** The app as main.ts builds it on `database`, with its own token keys, and a way to sign a user's access token. */
export async function benchApp(database: Database): Promise<{ app: App; token: (email: string) => Promise<string> }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256' };
  const app = await buildApp({
    db: database.db,
    driver: database.driver,
    clock: systemClock,
    verifier: jwtTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys: createLocalJWKSet({ keys: [jwk] }), requireAtJwt: true }),
    authConfig: { issuer: ISSUER, clientId: 'bench', audience: AUDIENCE, scope: 'openid', embedded: false, passwordResetUrl: null },
    dailyMinimumWage: DEFAULT_DAILY_MINIMUM_WAGE,
  });
  const token = (email: string) =>
    new SignJWT({ email })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'bench' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(email)
      .setExpirationTime('1h')
      .sign(privateKey);
  return { app, token };
}
