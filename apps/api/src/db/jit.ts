import { sql } from 'drizzle-orm';
import type { Tx } from './client';

/**
 * JIT compilation off for the rest of the transaction, for work that runs one statement per batch. PostgreSQL compiles
 * a statement whose estimated cost passes `jit_above_cost` at each execution and keeps nothing: a payment file's batch
 * read (2,000 credits' schedules, 220 ms of work) took 336 ms more to compile, fifty times over a 100,000-row file
 * (bench/payment-file.bench.ts). PGlite has no JIT and accepts the setting.
 */
export const withoutJit = (tx: Tx) => tx.execute(sql`set local jit = off`);
