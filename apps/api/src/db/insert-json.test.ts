import { asc, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { insertAsJson } from './insert-json';
import { auditEvents } from './schema/audit';

/** Rows whose values JSON could bend: instants to the millisecond, nested and odd text, nulls, keys of any case. */
const rows = (entity: string) =>
  [
    {
      occurredAt: new Date('2026-11-29T23:59:59.987Z'),
      actorId: null,
      actorEmail: 'ñandú@demo.mx',
      action: 'payment.apply',
      entity,
      entityId: 'con "comillas", \\ y {llaves}',
      before: { rows: [{ amount: '1234567890123.45', due: '2026-02-28' }], waived: [] },
      after: null,
      requestId: null,
    },
    {
      occurredAt: new Date('2026-01-01T06:00:00.000Z'),
      actorId: '00000000-0000-4000-8000-000000000001',
      actorEmail: null,
      action: 'credit.renew',
      entity,
      entityId: 'NULL',
      before: null,
      after: { nested: { deep: [1, 2.5, null, true, 'texto'] }, amount: '-0.01' },
      requestId: 'req-1',
    },
  ] satisfies (typeof auditEvents.$inferInsert)[];

/** The second implementation is Drizzle's own insert: the same rows written by both read back the same. */
describe.each(ENGINES)('rows inserted as one JSON parameter (%s)', (engine) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp(engine);
  });
  afterAll(() => ctx?.close());

  const written = (entity: string) =>
    ctx.system((tx) =>
      tx
        .select()
        .from(auditEvents)
        .where(inArray(auditEvents.entity, [entity]))
        .orderBy(asc(auditEvents.id)),
    );

  it('writes each row as Drizzle’s insert writes it, in the order given', async () => {
    await ctx.system(async (tx) => {
      await tx.insert(auditEvents).values(rows('by-drizzle'));
      await insertAsJson(tx, auditEvents, rows('by-json'));
    });
    const strip = (stored: Awaited<ReturnType<typeof written>>) => stored.map(({ id: _id, entity: _entity, ...rest }) => rest);
    const byDrizzle = await written('by-drizzle');
    const byJson = await written('by-json');
    expect(byJson).toHaveLength(2);
    expect(strip(byJson)).toEqual(strip(byDrizzle));
    // The serial follows the order given: the first row written first.
    expect(byJson.map((row) => row.action)).toEqual(['payment.apply', 'credit.renew']);
  });

  it('writes rows that name different columns as Drizzle’s insert does: a column a row lacks takes its default', async () => {
    type Row = typeof auditEvents.$inferInsert;
    const [first, second] = rows('mixed') as [Row, Row];
    // The first row without its actor's e-mail and request (no default: null), which the second names; the second's
    // after left undefined (as lacking it).
    const { actorEmail: _actorEmail, requestId: _requestId, ...lacking } = first;
    const mixed = [lacking, { ...second, after: undefined }];
    await ctx.system(async (tx) => {
      await tx.insert(auditEvents).values(mixed.map((row) => ({ ...row, entity: 'mixed-by-drizzle' })));
      await insertAsJson(tx, auditEvents, mixed);
    });
    const strip = (stored: Awaited<ReturnType<typeof written>>) => stored.map(({ id: _id, entity: _entity, ...rest }) => rest);
    const byJson = await written('mixed');
    expect(byJson.map((row) => [row.actorEmail, row.requestId, row.after])).toEqual([
      [null, null, null],
      [null, 'req-1', null],
    ]);
    expect(strip(byJson)).toEqual(strip(await written('mixed-by-drizzle')));
  });

  it('refuses a key that is not a column, and a row lacking a column whose default the database computes, writing nothing', async () => {
    type Row = typeof auditEvents.$inferInsert;
    const [first, second] = rows('refused') as [Row, Row];
    const unknown = { ...first, color: 'rojo' } as Row;
    await expect(ctx.system((tx) => insertAsJson(tx, auditEvents, [unknown]))).rejects.toThrow('color no es una columna');
    // occurred_at defaults to now(): a row without it beside one with it has no value to write.
    const { occurredAt: _occurredAt, ...undated } = second;
    await expect(ctx.system((tx) => insertAsJson(tx, auditEvents, [first, undated]))).rejects.toThrow(
      'una fila no trae occurredAt, cuyo valor por omisión no es un valor fijo',
    );
    await ctx.system((tx) => insertAsJson(tx, auditEvents, []));
    expect(await written('refused')).toEqual([]);
  });
});
