import pg from 'pg';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER, SchemaMismatchError, assertSchemaCurrent, migrateWithLock } from './migrate';
import { postgresScratch } from '../test/test-app';

/** The migrations the code ships, counted from drizzle-kit's journal (not from the migrator under test). */
async function journalLength(): Promise<number> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!inject('postgresTemplate'))('migrations on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  it('lets two replicas migrate a fresh database at once: both succeed, each migration is applied once', async () => {
    const scratch = await postgresScratch('empty');
    drop = scratch.drop;
    const [first, second] = await Promise.all([migrateWithLock(scratch.url), migrateWithLock(scratch.url)]);
    const total = await journalLength();
    // One of them applied everything behind the lock; the other found nothing left.
    expect([first.applied, second.applied].sort()).toEqual([0, total]);
    const rows = await query<{ count: string; distinct: string }>(
      scratch.url,
      'select count(*) as count, count(distinct created_at) as distinct from drizzle.__drizzle_migrations',
    );
    expect(rows[0]).toEqual({ count: String(total), distinct: String(total) });
    await expect(assertSchemaCurrent(scratch.url)).resolves.toBeUndefined();
  });

  it('refuses a database behind the code, saying to run npm run migrate', async () => {
    const scratch = await postgresScratch('template');
    drop = scratch.drop;
    await expect(assertSchemaCurrent(scratch.url)).resolves.toBeUndefined();
    // As if the newest migration had not been applied yet.
    await query(
      scratch.url,
      'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)',
    );
    const refusal = assertSchemaCurrent(scratch.url);
    await expect(refusal).rejects.toBeInstanceOf(SchemaMismatchError);
    await expect(refusal).rejects.toThrow(
      `atrás del código: faltan 1 de ${await journalLength()} migraciones. Ejecuta \`npm run migrate\``,
    );
  });

  it('refuses an empty database as behind too', async () => {
    const scratch = await postgresScratch('empty');
    drop = scratch.drop;
    // The expected text first: awaited inside the matcher's argument, the refusal could settle with no handler yet.
    const total = await journalLength();
    await expect(assertSchemaCurrent(scratch.url)).rejects.toThrow(`faltan ${total} de ${total} migraciones`);
  });

  it('refuses a database ahead of the code (migrated by a newer release)', async () => {
    const scratch = await postgresScratch('template');
    drop = scratch.drop;
    // A newer release's migration: a hash and a timestamp this code's journal does not have.
    await query(
      scratch.url,
      `insert into drizzle.__drizzle_migrations (hash, created_at) values ('de-una-version-nueva', ${Date.now() + 86_400_000})`,
    );
    await expect(assertSchemaCurrent(scratch.url)).rejects.toThrow('adelante del código: tiene 1 migración(es) que esta versión no conoce');
  });
});
