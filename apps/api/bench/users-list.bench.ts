/**
 * `npm run bench -w @portal/api`: p95 of the user list endpoint for a filtered, sorted page with 100,000 users, on
 * PostgreSQL (BENCH_DATABASE_URL, default the local server) and on PGlite, through the whole HTTP stack
 * (token check, permission, validation, SQL, serialization) with `app.inject`.
 */
import { openDatabase, type Database } from '../src/db/client';
import { benchApp, postgresDatabase } from './bench-database';
import { seedDemo } from '../src/seed/seed';
import { seedSyntheticUsers } from '../src/seed/seed-users';
import { profiles } from '../src/db/schema/users';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const RUNS = 300;

async function measure(label: string, database: Database) {
  await seedDemo(database.db);
  const seeded = performance.now();
  await seedSyntheticUsers(database.db, USERS);
  const seedSeconds = (performance.now() - seeded) / 1000;

  const { app, token: sign } = await benchApp(database);
  const token = await sign('admin@demo.mx');
  const [cartera] = await database.db.select().from(profiles);
  const queries = [
    `status=active&profileId=${cartera!.id}&sort=-lastSignInAt&page=3&pageSize=25`,
    `status=active&sort=email&page=40&pageSize=50`,
    `profileId=${cartera!.id}&sort=name&page=1&pageSize=100`,
    // A broad search (one user in twelve is a María) and a narrow one (one person).
    `q=maria&status=active&sort=email&page=1&pageSize=25`,
    `q=p%C3%A9rez%201234&sort=-lastSignInAt&page=1&pageSize=25`,
  ];
  for (const query of queries) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const response = await app.inject({ url: `/api/users?${query}`, headers: { authorization: `Bearer ${token}` } });
      times.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body}`);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    console.log(`${label.padEnd(10)} ${query.replace(cartera!.id, '<perfil>').padEnd(62)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms`);
  }
  console.log(`${label.padEnd(10)} (${USERS.toLocaleString('en-US')} usuarios sembrados en ${seedSeconds.toFixed(1)} s)`);
  await app.close();
}

const postgres = await postgresDatabase();
if (postgres) {
  await measure('PostgreSQL', postgres.database);
  await postgres.drop();
} else {
  console.log('PostgreSQL no responde en BENCH_DATABASE_URL: se omite.');
}
const pglite = await openDatabase({ kind: 'pglite' }, { migrate: true });
await measure('PGlite', pglite);
await pglite.close();
