/**
 * Requests per second and p95 of the company-scoped list endpoints on PostgreSQL, 20 requests in flight through
 * app.inject (the app's own cost: routing, token check, the scoped transaction, SQL, serialisation; no sockets).
 * Used to measure what row-level security costs: run it on a commit before the scope change and after it.
 */
import { seedDemo } from '../src/seed/seed';
import { seedDemoPortfolio } from '../src/seed/seed-portfolio';
import { benchApp, postgresDatabase } from './bench-database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 20);

const postgres = await postgresDatabase();
if (!postgres) {
  console.log('PostgreSQL no responde en BENCH_DATABASE_URL: se omite.');
  process.exit(0);
}
const { database } = postgres;
try {
  await seedDemo(database.db);
  await seedDemoPortfolio(database.db, new Date(), 1000);
  // What autovacuum does after a bulk load: statistics for the planner (as the tables' owner, on a connection of its own).
  await postgres.analyze();
  const { app, token } = await benchApp(database);
  const cases = [
    { label: 'Capturas, SA (todas las empresas)', url: '/api/requests?page=2&pageSize=25&sort=-createdAt', email: 'admin@demo.mx' },
    { label: 'Capturas, Originación (una empresa)', url: '/api/requests?page=2&pageSize=25&sort=-createdAt', email: 'originacion@demo.mx' },
    { label: 'Capturas, búsqueda por nombre', url: '/api/requests?q=maria&pageSize=25', email: 'originacion@demo.mx' },
  ];
  for (const { label, url, email } of cases) {
    const authorization = `Bearer ${await token(email)}`;
    const times: number[] = [];
    const until = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < until) {
          const sent = performance.now();
          const response = await app.inject({ url, headers: { authorization } });
          if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
          times.push(performance.now() - sent);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const p95 = times[Math.floor(times.length * 0.95)]!;
    console.log(
      `${label.padEnd(38)} ${Math.round(times.length / elapsed)
        .toString()
        .padStart(5)} req/s  p95 ${p95.toFixed(1)} ms  (${IN_FLIGHT} a la vez, ${SECONDS} s)`,
    );
  }
  await app.close();
} finally {
  await postgres.drop();
}
