import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { arrayLiteral } from './array-literal';
import { rowsOf } from './rows';

/** What a payroll file's cells can hold, each read back by PostgreSQL as the very text sent. */
const TEXTS = ['E1001', 'con "comillas"', 'barra \\ inversa', 'coma, y {llaves}', ' espacios ', 'NULL', '', 'ñandú'];

describe.each(ENGINES)('an array literal (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine);
  });
  afterAll(() => ctx?.close());

  it('reads back every text as it was, a null as null, and numbers as numbers', async () => {
    const [row] = await ctx.system(async (tx) =>
      rowsOf<{ texts: string[]; numbers: string[] }>(
        await tx.execute(
          sql`select ${arrayLiteral([...TEXTS, null])}::text[] as texts, ${arrayLiteral([1, 99_999_999_999])}::bigint[]::text[] as numbers`,
        ),
      ),
    );
    expect(row!.texts).toEqual([...TEXTS, null]);
    expect(row!.numbers).toEqual(['1', '99999999999']);
  });
});
