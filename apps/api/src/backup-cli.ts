import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import {
  BackupError,
  backupEmbedded,
  backupKind,
  backupPostgres,
  restoreEmbedded,
  restorePostgres,
  sizeOf,
  type RestoreReport,
} from './db/backup';

/**
 * `npm run db:backup -- FILE` and `npm run db:restore -- FILE` (db/backup.ts): the database the portal's configuration
 * names (DATABASE_URL, or DATA_DIR's embedded database). A restore goes into an empty database or a new folder.
 */
const [command, file] = process.argv.slice(2);
const USAGE = 'Uso: npm run db:backup -- ARCHIVO   |   npm run db:restore -- ARCHIVO';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (start: number) => `${((performance.now() - start) / 1000).toFixed(1)} s`;

function report(restored: RestoreReport, start: number): void {
  if (restored.isolation.length > 0) {
    console.error(
      `Restaurada, pero con tablas de empresa sin aislamiento (el portal no arrancará): ${restored.isolation.map((item) => `${item.table} (${item.problem})`).join('; ')}`,
    );
    process.exit(1);
  }
  const steps = Object.entries(restored.steps).map(([step, taken]) => `${step} ${taken} s`);
  console.log(
    `Restaurada en ${seconds(start)}${steps.length ? ` (${steps.join(', ')})` : ''}: ${restored.tables} tablas; aislamiento por empresa en orden.`,
  );
  if (restored.schema) console.log(`Atención: ${restored.schema}`);
}

async function main(): Promise<void> {
  if ((command !== 'backup' && command !== 'restore') || !file) throw new BackupError(USAGE);
  const config = loadConfig();
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const start = performance.now();
  if (command === 'backup') {
    if (config.database.kind === 'postgres') {
      await backupPostgres(config.database.url, target);
      console.log(`Copia de PostgreSQL (pg_dump, formato custom) en ${target}: ${megabytes(await sizeOf(target))} en ${seconds(start)}.`);
    } else {
      const made = await backupEmbedded(config.database.dataDir, target);
      const source = made.from === 'running portal' ? `del portal en marcha (pid ${made.pid})` : `de la carpeta ${config.database.dataDir}`;
      console.log(`Copia de la base embebida ${source} en ${target}: ${megabytes(await sizeOf(target))} en ${seconds(start)}.`);
    }
    return;
  }
  const kind = await backupKind(target);
  if (config.database.kind === 'postgres') {
    if (kind !== 'postgres')
      throw new BackupError(`${target} es una copia de la base embebida: se restaura sin DATABASE_URL, en DATA_DIR.`);
    report(await restorePostgres(config.database.url, target), start);
  } else {
    if (kind !== 'embedded')
      throw new BackupError(`${target} es una copia de PostgreSQL: se restaura con DATABASE_URL apuntando a una base vacía.`);
    report(await restoreEmbedded(config.database.dataDir, target), start);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : `No se pudo: ${(error as Error).message}`);
  process.exit(1);
});
