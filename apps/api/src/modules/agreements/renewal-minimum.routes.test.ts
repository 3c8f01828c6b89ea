import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../../test/test-app';
import { auditEvents } from '../../db/schema/audit';
import { companies, profiles } from '../../db/schema/users';

/**
 * The company's minimum net amount of a renewal over HTTP (issue 48). On both engines: which company's row a user
 * reaches is row-level security's doing on `companies`, and that is where PGlite and PostgreSQL may differ.
 */

type Headers = { authorization: string };
const URL = '/api/agreements/renewal-minimum';

describe.each(ENGINES)('Monto neto mínimo de una renovación (%s)', (engine) => {
  let ctx: TestContext;
  let admin: Headers;

  beforeAll(async () => {
    ctx = await createTestApp(engine, { snapshot: true });
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.reset();
    admin = await ctx.as('admin@demo.mx');
  });

  const read = (headers: Headers = admin) => ctx.app.inject({ method: 'GET', url: URL, headers });
  const write = (renewalMinimumNet: unknown, headers: Headers = admin) =>
    ctx.app.inject({ method: 'PUT', url: URL, payload: { renewalMinimumNet }, headers });
  const stored = async (code: string) =>
    (await ctx.system((db) => db.select({ value: companies.renewalMinimumNet }).from(companies).where(eq(companies.code, code))))[0]!.value;
  const audits = () =>
    ctx.system((db) =>
      db
        .select({
          entityId: auditEvents.entityId,
          actorEmail: auditEvents.actorEmail,
          before: auditEvents.before,
          after: auditEvents.after,
        })
        .from(auditEvents)
        .where(eq(auditEvents.action, 'company.renewal-minimum'))
        .orderBy(asc(auditEvents.id)),
    );
  const companyId = async (code: string) =>
    (await ctx.system((db) => db.select({ id: companies.id }).from(companies).where(eq(companies.code, code))))[0]!.id;

  it('reads 0 by default, sets a value as typed and reads it back with two decimals, takes 0 again, and audits each change', async () => {
    expect((await read()).json()).toEqual({ renewalMinimumNet: '0.00' });
    const set = await write('$12,500.5');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ renewalMinimumNet: '12500.50' });
    expect((await read()).json()).toEqual({ renewalMinimumNet: '12500.50' });
    expect(await stored('DEMO')).toBe('12500.50');
    expect((await write('0')).json()).toEqual({ renewalMinimumNet: '0.00' });
    expect(await stored('DEMO')).toBe('0.00');
    const demo = await companyId('DEMO');
    expect(await audits()).toEqual([
      { entityId: demo, actorEmail: 'admin@demo.mx', before: { renewalMinimumNet: '0.00' }, after: { renewalMinimumNet: '12500.50' } },
      { entityId: demo, actorEmail: 'admin@demo.mx', before: { renewalMinimumNet: '12500.50' }, after: { renewalMinimumNet: '0.00' } },
    ]);
  });

  it.each([
    ['-1', 'Monto neto mínimo: no puede ser negativo; escribe 0 para no pedir mínimo.'],
    ['1.234', 'Monto neto mínimo: a lo más dos decimales (centavos).'],
    ['abc', 'Monto neto mínimo: escribe un importe en pesos, por ejemplo 5000 o 5000.50.'],
    ['', 'Monto neto mínimo: escribe un importe en pesos, por ejemplo 5000 o 5000.50.'],
    ['1000000000000', 'Monto neto mínimo: no puede pasar de $999,999,999,999.99.'],
  ])('refuses %j with its Spanish message, and changes nothing', async (typed, message) => {
    const refused = await write(typed);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errors: [{ field: 'renewalMinimumNet', message }] });
    expect(await stored('DEMO')).toBe('0.00');
    expect(await audits()).toEqual([]);
  });

  it('takes the largest amount numeric(14,2) holds', async () => {
    expect((await write('999999999999.99')).json()).toEqual({ renewalMinimumNet: '999999999999.99' });
  });

  it('refuses the write without its permission (403) and lets whoever sees the Convenios list read', async () => {
    const cartera = await ctx.as('cartera@demo.mx');
    expect((await read(cartera)).statusCode).toBe(403);
    expect((await write('100', cartera)).statusCode).toBe(403);
    const plus = await ctx.as('plus@demo.mx');
    expect((await read(plus)).statusCode).toBe(200);
    expect((await write('100', plus)).statusCode).toBe(403);
    expect(await stored('PLUS')).toBe('0.00');
  });

  it('changes nothing through an oddly spelled path without the permission', async () => {
    const plus = await ctx.as('plus@demo.mx');
    for (const url of [
      `${URL}/`,
      '/api/agreements/Renewal-Minimum',
      '/api/agreements/renewal%2Dminimum',
      '/api//agreements/renewal-minimum',
    ]) {
      const answer = await ctx.app.inject({ method: 'PUT', url, payload: { renewalMinimumNet: '100' }, headers: plus });
      expect([400, 403, 404], `${url}: ${answer.statusCode}`).toContain(answer.statusCode);
    }
    expect(await stored('PLUS')).toBe('0.00');
    expect(await audits()).toEqual([]);
  });

  it('keeps two writes at the same moment in order: the second audit starts where the first ended', async () => {
    const answers = await Promise.all([write('100'), write('200')]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [first, second] = await audits();
    expect(second!.before).toEqual(first!.after);
    expect(await stored('DEMO')).toBe((second!.after as { renewalMinimumNet: string }).renewalMinimumNet);
  });

  it("gives a user of Crédito Nómina Plus its own company's value only: the first company's stays as it was", async () => {
    await ctx.system((db) =>
      db
        .update(profiles)
        .set({ permissions: sql`${profiles.permissions} || array['/actions/agreements/renewal-minimum']::text[]` })
        .where(eq(profiles.name, 'Operación')),
    );
    const plus = await ctx.as('plus@demo.mx');
    expect((await write('7000')).statusCode).toBe(200);
    expect((await read(plus)).json()).toEqual({ renewalMinimumNet: '0.00' });
    // A company named in the body is not a field of this route: the principal's company is the one written.
    const set = await ctx.app.inject({
      method: 'PUT',
      url: URL,
      payload: { renewalMinimumNet: '3000', companyId: await companyId('DEMO') },
      headers: plus,
    });
    expect(set.json()).toEqual({ renewalMinimumNet: '3000.00' });
    expect((await read(plus)).json()).toEqual({ renewalMinimumNet: '3000.00' });
    expect(await stored('PLUS')).toBe('3000.00');
    expect(await stored('DEMO')).toBe('7000.00');
    expect((await read()).json()).toEqual({ renewalMinimumNet: '7000.00' });
    const [written] = await ctx.system((db) =>
      db
        .select({ before: auditEvents.before, after: auditEvents.after })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'company.renewal-minimum'), eq(auditEvents.actorEmail, 'plus@demo.mx'))),
    );
    expect(written).toEqual({ before: { renewalMinimumNet: '0.00' }, after: { renewalMinimumNet: '3000.00' } });
    expect((await audits()).map((row) => row.entityId)).toEqual([await companyId('DEMO'), await companyId('PLUS')]);
  });
});
