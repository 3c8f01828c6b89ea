import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '@portal/contract';
import type { Db } from '../db/client';
import { users } from '../db/schema/users';
import { countUpTo, countUpToSql, ROW } from './pagination';

/** Decision 0017: a count's cap is written into the statement, and only the filters' values travel as parameters. */
describe('a list count', () => {
  const dialect = new PgDialect();
  const db = drizzle.mock() as unknown as Db;
  const where = eq(users.email, 'ana@demo.mx');

  it('writes its cap into the text, built with Drizzle or in raw SQL', () => {
    const built = (countUpTo(db, db.select(ROW).from(users).where(where)) as unknown as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
    const raw = dialect.sqlToQuery(countUpToSql(sql`select 1 from ${users} where ${where}`));
    for (const query of [built, raw]) {
      expect(query.sql).toContain(`limit ${LIST_COUNT_CAP + 1}`);
      expect(query.params).toEqual(['ana@demo.mx']);
    }
  });
});
