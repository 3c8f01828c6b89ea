import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { arrayParam, jsonElements, unnestRows } from './array-param';
import { rowsOf } from './rows';

/** What a payroll file's cells can hold, each read back by PostgreSQL as the very text sent. */
const TEXTS = ['E1001', 'con "comillas"', 'barra \\ inversa', 'coma, y {llaves}', ' espacios ', 'NULL', '', 'ñandú'];

/** Values come back as PostgreSQL writes them: each must be the one written, to the last digit, in its row's place. */
describe.each(ENGINES)('a batch column as one array parameter (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
  });
  afterAll(() => ctx?.close());

  it('reads each row of several columns in its place, amounts and dates as written, nulls as null', async () => {
    const rows = await ctx.system(async (tx) =>
      rowsOf<{ id: string; n: number; amount: string | null; day: string | null }>(
        await tx.execute(sql`
          select x.id::text as id, x.n, x.amount::text as amount, x.day::text as day
          from unnest(${arrayParam('uuid', ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'])},
                      ${arrayParam('int', [3, 1, 2])},
                      ${arrayParam('numeric', ['1234567890123.45', null, '-0.01'])},
                      ${arrayParam('date', [null, '2026-02-28', '2026-11-23'])}) with ordinality as x(id, n, amount, day, position)
          order by x.position`),
      ),
    );
    expect(rows).toEqual([
      { id: '00000000-0000-4000-8000-000000000001', n: 3, amount: '1234567890123.45', day: null },
      { id: '00000000-0000-4000-8000-000000000002', n: 1, amount: null, day: '2026-02-28' },
      { id: '00000000-0000-4000-8000-000000000003', n: 2, amount: '-0.01', day: '2026-11-23' },
    ]);
  });

  it('names each column of a batch of rows by its key, each row kept whole', async () => {
    const batch = [
      { credit: '00000000-0000-4000-8000-000000000002', period: 7, amount: '0.10', ignored: 'x' },
      { credit: '00000000-0000-4000-8000-000000000001', period: 3, amount: null, ignored: 'y' },
    ];
    const rows = await ctx.system(async (tx) =>
      rowsOf<{ credit: string; period: number; amount: string | null }>(
        await tx.execute(sql`
          select x.credit::text as credit, x.period, x.amount::text as amount
          from ${unnestRows(batch, [
            ['period', 'int'],
            ['credit', 'uuid'],
            ['amount', 'numeric'],
          ])}`),
      ),
    );
    expect(rows).toEqual([
      { credit: '00000000-0000-4000-8000-000000000002', period: 7, amount: '0.10' },
      { credit: '00000000-0000-4000-8000-000000000001', period: 3, amount: null },
    ]);
  });

  it('keeps each JSON element as written', async () => {
    const written = ['{"b":"ñandú \\"dice\\" \\\\ hola","a":[1,2.50,null]}', '[]', '{"x":{"y":"0.10"}}'];
    const rows = await ctx.system(async (tx) =>
      rowsOf<{ value: string }>(await tx.execute(sql`select value::text as value from ${jsonElements(written)}`)),
    );
    expect(rows.map((row) => row.value)).toEqual(written);
  });

  it('reads back every text as it was, a null as null, and big numbers as numbers', async () => {
    const [row] = await ctx.system(async (tx) =>
      rowsOf<{ texts: string[]; numbers: string[] }>(
        await tx.execute(
          sql`select ${arrayParam('text', [...TEXTS, null])} as texts, ${arrayParam('bigint', [1, 99_999_999_999])}::text[] as numbers`,
        ),
      ),
    );
    expect(row!.texts).toEqual([...TEXTS, null]);
    expect(row!.numbers).toEqual(['1', '99999999999']);
  });

  it('refuses a value that would break the literal, rather than shift the rows', () => {
    for (const value of ['1,5', '', 'a"b', ' 1', '{1}', 'NULL', 'a\\b'])
      expect(() => arrayParam('numeric', ['1.00', value]), value).toThrow(/no apto/);
  });
});
