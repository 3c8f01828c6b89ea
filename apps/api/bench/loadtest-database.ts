/**
 * `npm run loadtest:database -w @portal/api`: builds the load test's large database once and keeps it, for
 * `LOADTEST_DATABASE=<name> npm run loadtest` (issue 52): the demo, LOADTEST_CREDITS synthetic credits (1,000,000 by
 * default, set-based as bench:portfolio loads them, with their requests and clients named as the demo's people are)
 * and LOADTEST_USERS synthetic users (20,000). No day is closed: the searches and views read the portfolio as loaded.
 * Heavy (minutes of both cores): run it niced, once, and reuse the database it names.
 */
import { seedSyntheticUsers } from '../src/seed/seed-users';
import { postgresDatabase } from './bench-database';
import { syntheticPortfolio } from './synthetic-portfolio';

process.env.BENCH_KEEP = '1';
const CREDITS = Number(process.env.LOADTEST_CREDITS ?? 1_000_000);
const USERS = Number(process.env.LOADTEST_USERS ?? 20_000);

const pg = await postgresDatabase();
if (!pg) throw new Error('PostgreSQL no responde.');
const started = performance.now();
await syntheticPortfolio(pg, CREDITS);
await seedSyntheticUsers(pg.database.db, USERS);
await pg.analyze();
console.log(
  `Datos: demo + ${CREDITS.toLocaleString('es-MX')} créditos + ${USERS.toLocaleString('es-MX')} usuarios en ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
await pg.drop();
