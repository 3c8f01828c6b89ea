import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { asSystem } from '../db/scope';
import { companies, profiles, users } from '../db/schema/users';

const FIRST = ['Ana', 'Luis', 'María', 'José', 'Lucía', 'Carlos', 'Sofía', 'Jorge', 'Elena', 'Miguel', 'Paola', 'Raúl'];
const LAST = ['García', 'Hernández', 'López', 'Martínez', 'González', 'Pérez', 'Rodríguez', 'Sánchez', 'Ramírez', 'Torres'];

/**
 * Adds `total` synthetic users spread over the existing profiles and companies, in batches of 1,000 (one statement
 * per batch: 100,000 rows take seconds, not minutes). For benchmarks and load checks, never for production data.
 */
export async function seedSyntheticUsers(db: Db, total: number, batchSize = 1000): Promise<void> {
  const profileIds = (await db.select({ id: profiles.id }).from(profiles)).map((row) => row.id);
  const companyIds = (await asSystem(db, (tx) => tx.select({ id: companies.id }).from(companies))).map((row) => row.id);
  if (profileIds.length === 0 || companyIds.length === 0)
    throw new Error('Primero siembra perfiles y empresas (npm start o SEED_DEMO=true).');
  const runId = randomUUID().slice(0, 8);
  const start = Date.UTC(2026, 0, 1);
  for (let offset = 0; offset < total; offset += batchSize) {
    const rows = Array.from({ length: Math.min(batchSize, total - offset) }, (_, index) => {
      const n = offset + index;
      const first = FIRST[n % FIRST.length]!;
      const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
      return {
        email: `${first
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase()}.${n}.${runId}@carga.mx`,
        name: `${first} ${last} ${n}`,
        profileId: profileIds[n % profileIds.length]!,
        companyId: companyIds[n % companyIds.length]!,
        active: n % 7 !== 0,
        lastSignInAt: n % 3 === 0 ? null : new Date(start + (n % 300) * 86_400_000 + (n % 1440) * 60_000),
      };
    });
    await asSystem(db, (tx) => tx.insert(users).values(rows));
  }
  // What autovacuum would do after a bulk load: statistics for the planner and a fresh visibility map.
  await db.execute(sql`vacuum analyze users`);
}
