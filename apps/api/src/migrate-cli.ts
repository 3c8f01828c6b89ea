import { ConfigError, loadConfig } from './config';
import { migrateWithLock } from './db/migrate';

/** `npm run migrate`: applies pending migrations to DATABASE_URL and exits; safe to run from several replicas at once. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.database.kind !== 'postgres') {
    console.error('npm run migrate necesita DATABASE_URL: la base embebida (PGlite) se migra sola al iniciar el servidor.');
    process.exit(1);
  }
  const { applied } = await migrateWithLock(config.database.url);
  console.log(applied === 0 ? 'La base de datos ya estaba al día.' : `Migraciones aplicadas: ${applied}.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `No se pudo migrar: ${(error as Error).message}`);
  process.exit(1);
});
