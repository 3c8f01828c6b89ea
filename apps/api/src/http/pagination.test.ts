import { eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '@portal/contract';
import type { Session } from '../db/fixed-select';
import { profiles, users } from '../db/schema/users';
import { countUpToSql, fixedCount } from './pagination';

/** Decision 0017: a count's cap is written into the statement, and only the filters' values travel as parameters. */
describe('a list count', () => {
  const where = eq(users.email, 'ana@demo.mx');

  /** A session that answers every statement with `total` and keeps what it was sent. */
  function session(total: number) {
    const sent: { sql: string; params: unknown[] }[] = [];
    const db: Session = {
      _: {
        session: {
          prepareQuery: ((query: { sql: string; params: unknown[] }) => {
            sent.push(query);
            return { execute: async () => ({ rows: [{ total }] }) };
          }) as unknown as Session['_']['session']['prepareQuery'],
        },
      },
    };
    return { db, sent };
  }

  it('is written around the request filters once, its cap in the text; only the filters travel as parameters', async () => {
    const count = fixedCount((select) => select.from(users).innerJoin(profiles, eq(profiles.id, users.profileId)));
    const { db, sent } = session(7);
    expect(await count.in(db).where(where)).toEqual([{ total: 7 }]);
    await count.in(db).where(undefined);
    await count.in(db).where(eq(users.email, 'luis@demo.mx'));
    const head =
      'select count(*)::int as total from (select 1 as "one" from "users" inner join "profiles" on "profiles"."id" = "users"."profile_id"';
    expect(sent).toEqual([
      { sql: `${head} where "users"."email" = $1 limit ${LIST_COUNT_CAP + 1}) matching`, params: ['ana@demo.mx'] },
      { sql: `${head}  limit ${LIST_COUNT_CAP + 1}) matching`, params: [] },
      { sql: `${head} where "users"."email" = $1 limit ${LIST_COUNT_CAP + 1}) matching`, params: ['luis@demo.mx'] },
    ]);
    // The same filters are the same text, not a new string (the statement cache finds statements by their text).
    expect(sent[2]!.sql).toBe(sent[0]!.sql);
  });

  it('runs only when awaited, so a page and its count go out together in the order they are awaited', async () => {
    const { db, sent } = session(0);
    const pending = fixedCount((select) => select.from(users))
      .in(db)
      .where(where);
    expect(sent).toEqual([]);
    await pending;
    expect(sent).toHaveLength(1);
  });

  it('writes its cap into the text in raw SQL too', () => {
    const raw = new PgDialect().sqlToQuery(countUpToSql(sql`select 1 from ${users} where ${where}`));
    expect(raw.sql).toContain(`limit ${LIST_COUNT_CAP + 1}`);
    expect(raw.params).toEqual(['ana@demo.mx']);
  });
});
