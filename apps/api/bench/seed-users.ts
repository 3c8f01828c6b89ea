/**
 * `npm run seed:users -w @portal/api -- 100000`: adds synthetic users to the configured database (DATABASE_URL, or
 * the PGlite folder of DATA_DIR / ./data), migrating it first.
 */
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { isEmpty, seedDemo } from '../src/seed/seed';
import { seedSyntheticUsers } from '../src/seed/seed-users';

const total = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(total) || total < 1) {
  console.error('Uso: npm run seed:users -w @portal/api -- <cantidad>');
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase(
  config.database.kind === 'postgres' ? config.database : { kind: 'pglite', dataDir: config.database.dataDir },
  { migrate: true },
);
if (await isEmpty(database.db)) await seedDemo(database.db);
const started = performance.now();
await seedSyntheticUsers(database.db, total);
console.log(`${total.toLocaleString('es-MX')} usuarios sembrados en ${((performance.now() - started) / 1000).toFixed(1)} s`);
await database.close();
