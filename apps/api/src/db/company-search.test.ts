import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { seedDemoPortfolio } from '../seed/seed-portfolio';
import { clients, requests } from './schema/origination';
import { credits } from './schema/credits';
import { companies, users } from './schema/users';
import { withScope, type DataScope } from './scope';
import { matchingIds, type MatchingIds } from './company-search';
import { creditFilters, creditListSelect, creditOrder } from '../modules/credits/credits.queries';
import { listUsers } from '../modules/users/users.queries';
import { listRequests } from '../modules/origination/requests.queries';
import { creditFolio } from '../modules/shared/folios';
import { SEARCH_COUNT_CAP } from '@portal/contract';

/**
 * The searches by name in two steps (decision 0034): the company-scoped functions of migration 0040 answer exactly the
 * ids the one-statement search finds, only the scope's own, and the lists they feed are the lists of before.
 */

type Company = 'DEMO' | 'PLUS';

/** A second reading of "contains, without case or accents" (decision 0031), in JavaScript: the golden for the search. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

describe.each(ENGINES)('Searches through a company-scoped function (%s)', (engine) => {
  let ctx: TestContext;
  let companyId: Record<Company, string>;
  const scope = (company: Company): DataScope => ({ companyId: companyId[company] });

  beforeAll(async () => {
    ctx = await createTestApp(engine);
    await seedDemoPortfolio(ctx.db, ctx.clock.now(), 24);
    const rows = await ctx.system((tx) => tx.select({ id: companies.id, code: companies.code }).from(companies));
    companyId = Object.fromEntries(rows.map((row) => [row.code, row.id])) as Record<Company, string>;
    // One client only in PLUS, and one name in both companies: a client and a request of each.
    await ctx.system(async (tx) => {
      for (const company of ['DEMO', 'PLUS'] as const) {
        const [credit] = await tx.select().from(credits).where(eq(credits.companyId, companyId[company])).limit(1);
        await tx.update(clients).set({ lastName2: 'Ñúñez' }).where(eq(clients.id, credit!.clientId));
        await tx.update(requests).set({ lastName2: 'Ñúñez' }).where(eq(requests.clientId, credit!.clientId));
        if (company === 'PLUS') {
          await tx.update(clients).set({ lastName1: 'Íñiguez' }).where(eq(clients.id, credit!.clientId));
          await tx.update(requests).set({ lastName1: 'Íñiguez' }).where(eq(requests.clientId, credit!.clientId));
        }
      }
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const allClients = () =>
    ctx.system((tx) =>
      tx
        .select({
          id: clients.id,
          companyId: clients.companyId,
          name: clients.firstNames,
          lastName1: clients.lastName1,
          lastName2: clients.lastName2,
        })
        .from(clients),
    );
  const fullName = (row: { name: string; lastName1: string; lastName2: string | null }) =>
    `${row.name} ${row.lastName1} ${row.lastName2 ?? ''}`;

  it('answers the ids of the scope’s own matching clients with a credit only, accents and case aside, and all companies for SA', async () => {
    const credited = new Set(
      (await ctx.system((tx) => tx.select({ clientId: credits.clientId }).from(credits))).map((row) => row.clientId),
    );
    const everyClient = (await allClients()).filter((row) => credited.has(row.id));
    const texts = ['íñiguez', 'INIGUEZ', 'ñúñez', 'NUNEZ', 'maría', 'MARIA', 'peña', 'a', 'zzz-nadie', '100%', 'n_n'];
    for (const text of texts) {
      const expected = (among: typeof everyClient) =>
        among
          .filter((row) => plain(fullName(row)).includes(plain(text)))
          .map((row) => row.id)
          .sort();
      for (const company of ['DEMO', 'PLUS'] as const) {
        const own = everyClient.filter((row) => row.companyId === companyId[company]);
        const ids = await withScope(ctx.db, scope(company), (tx) => matchingIds(tx, 'clients', text));
        const golden = expected(own);
        expect(ids === null ? null : [...ids].sort(), `${text} (${company})`).toEqual(golden.length > SEARCH_COUNT_CAP ? null : golden);
      }
      const all = await withScope(ctx.db, 'all-companies', (tx) => matchingIds(tx, 'clients', text));
      expect([...(all ?? [])].sort(), `${text} (SA)`).toEqual(expected(everyClient));
    }
  });

  it('never shows another company’s rows: a name only in the other company finds nothing, a name in both only one’s own', async () => {
    const inDemo = await withScope(ctx.db, scope('DEMO'), async (tx) => ({
      clients: await matchingIds(tx, 'clients', 'íñiguez'),
      requests: await matchingIds(tx, 'requests', 'íñiguez'),
      both: await matchingIds(tx, 'clients', 'ñúñez'),
    }));
    expect(inDemo.clients).toEqual([]);
    expect(inDemo.requests).toEqual([]);
    expect(inDemo.both).toHaveLength(1);
    const owners = await ctx.system((tx) =>
      tx
        .select({ companyId: clients.companyId })
        .from(clients)
        .where(inArray(clients.id, [...inDemo.both!])),
    );
    expect(owners).toEqual([{ companyId: companyId.DEMO }]);
    // The users of another company, by their e-mail.
    const plusUser = await withScope(ctx.db, scope('DEMO'), (tx) => matchingIds(tx, 'users', 'plus@demo.mx'));
    expect(plusUser).toEqual([]);
    const ownUser = await withScope(ctx.db, scope('PLUS'), (tx) => matchingIds(tx, 'users', 'plus@demo.mx'));
    expect(ownUser).toHaveLength(1);
    // Without a company, and outside the application's roles, nothing.
    expect(await withScope(ctx.db, { companyId: '' }, (tx) => matchingIds(tx, 'clients', 'a'))).toEqual([]);
    // Through the API: Demo Cartera's credits search by a name of both companies lists its own company's credit only.
    const cartera = await ctx.as('cartera@demo.mx');
    for (const q of ['ñúñez', 'NUNEZ', 'íñiguez']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/credits?q=${encodeURIComponent(q)}`, headers: cartera });
      expect(response.statusCode).toBe(200);
      const ids = response.json<{ items: { id: string }[] }>().items.map((item) => item.id);
      const expected = await ctx.system((tx) =>
        tx
          .select({ id: credits.id })
          .from(credits)
          .innerJoin(clients, eq(clients.id, credits.clientId))
          .where(eq(credits.companyId, companyId.DEMO)),
      );
      const named = await ctx.system((tx) => tx.select().from(clients).where(eq(clients.companyId, companyId.DEMO)));
      const matching = new Set(
        named.filter((row) => plain(`${row.firstNames} ${row.lastName1} ${row.lastName2 ?? ''}`).includes(plain(q))).map((row) => row.id),
      );
      const own = await ctx.system((tx) => tx.select({ id: credits.id, clientId: credits.clientId }).from(credits));
      expect(ids.sort(), q).toEqual(
        own
          .filter((row) => matching.has(row.clientId) && expected.some((mine) => mine.id === row.id))
          .map((row) => row.id)
          .sort(),
      );
    }
  });

  it('lists what the one-statement search lists: credits (ids and the walk beyond the cap), users and requests', async () => {
    const everyClient = await allClients();
    const names = [...new Set(everyClient.flatMap((row) => [row.name, row.lastName1, row.lastName2 ?? ''].filter(Boolean)))];
    const texts = [...names, ...names.map((name) => plain(name).toUpperCase()), 'ñ', 'N', 'maría', 'zzz-nadie', 'demo.mx', 'ADMIN'];
    for (const company of ['DEMO', 'PLUS'] as const) {
      await withScope(ctx.db, scope(company), async (tx) => {
        for (const q of texts) {
          const page = (clientIds?: MatchingIds) =>
            creditListSelect(tx)
              .where(creditFilters({ q, clientIds }))
              .orderBy(...creditOrder(undefined))
              .limit(1000);
          const before = await page();
          expect(await page(await matchingIds(tx, 'clients', q)), `credits ${q}`).toEqual(before);
          // A name past the cap (null): the list's order walked, one client read per credit.
          expect(await page(null), `credits walked ${q}`).toEqual(before);
          const usersQuery = { q, page: 1, pageSize: 100 };
          expect(await listUsers(tx, usersQuery, true), `users ${q}`).toEqual(await listUsers(tx, usersQuery, false));
          const requestsQuery = { q, page: 1, pageSize: 100 };
          expect(await listRequests(tx, requestsQuery, true), `requests ${q}`).toEqual(await listRequests(tx, requestsQuery, false));
        }
      });
    }
  });

  it('the matching users of the list are the users whose e-mail or name contains the text', async () => {
    const everyUser = await ctx.system((tx) => tx.select().from(users).where(eq(users.companyId, companyId.DEMO)));
    const ids = await withScope(ctx.db, scope('DEMO'), (tx) => matchingIds(tx, 'users', 'DEMO.MX'));
    expect([...ids!].sort()).toEqual(
      everyUser
        .filter((row) => plain(`${row.email} ${row.name ?? ''}`).includes('demo.mx'))
        .map((row) => row.id)
        .sort(),
    );
  });

  it('finds a client and a request by a new name only once renamed: their stored search text follows the name (decision 0038)', async () => {
    const [credit] = await ctx.system((tx) => tx.select().from(credits).where(eq(credits.companyId, companyId.DEMO)).limit(1));
    const [before] = await ctx.system((tx) => tx.select().from(clients).where(eq(clients.id, credit!.clientId)));
    const oldName = `${before!.firstNames} ${before!.lastName1}`;
    const found = (text: string) =>
      withScope(ctx.db, scope('DEMO'), async (tx) => ({
        clients: await matchingIds(tx, 'clients', text),
        requests: await matchingIds(tx, 'requests', text),
        list: (await listRequests(tx, { q: text, page: 1, pageSize: 100 }, false)).items.map((item) => item.id),
      }));
    await ctx.system(async (tx) => {
      await tx.update(clients).set({ firstNames: 'Zacarías', lastName1: 'Ébano' }).where(eq(clients.id, credit!.clientId));
      await tx.update(requests).set({ firstNames: 'Zacarías', lastName1: 'Ébano' }).where(eq(requests.id, credit!.requestId));
    });
    const renamed = await found('ZACARIAS ebano');
    expect(renamed).toEqual({ clients: [credit!.clientId], requests: [credit!.requestId], list: [credit!.requestId] });
    const byOldName = await found(oldName);
    expect(byOldName.clients ?? []).not.toContain(credit!.clientId);
    expect(byOldName.requests ?? []).not.toContain(credit!.requestId);
    expect(byOldName.list).not.toContain(credit!.requestId);
    await ctx.system(async (tx) => {
      const name = { firstNames: before!.firstNames, lastName1: before!.lastName1 };
      await tx.update(clients).set(name).where(eq(clients.id, credit!.clientId));
      await tx.update(requests).set(name).where(eq(requests.id, credit!.requestId));
    });
    expect(await found('zacarías ébano')).toEqual({ clients: [], requests: [], list: [] });
  });

  /** Copies made so far: each copy's folios follow them. */
  let copies = 0;
  /**
   * `count` clients of PLUS named `first last`, each with a request and a credit when `credited` (copies of a PLUS
   * credit's); their CURPs begin with `initial`, so that they come in that order by CURP as by insertion.
   */
  async function addClients(first: string, last: string, initial: string, count: number, credited: boolean) {
    const tag = `${first}-${last}`;
    const after = copies;
    copies += count;
    await ctx.system(async (tx) => {
      await tx.execute(sql`
        insert into clients (id, company_id, curp, first_names, last_name_1, birth_date, sex)
        select md5(${tag} || n)::uuid, ${companyId.PLUS}::uuid, ${initial}::text || upper(left(md5(${tag} || n), 17)), ${first}, ${last}, '1990-01-01', 'M'
        from generate_series(1, ${count}::int) n`);
      if (!credited) return;
      const [template] = await tx.select().from(credits).where(eq(credits.companyId, companyId.PLUS)).limit(1);
      // Each client's request and credit: the template's columns, with its own ids, folios, client and name.
      // The request's written columns: its search text is the database's own (generated from the name).
      const written = Object.values(getTableColumns(requests))
        .filter((column) => !column.generated)
        .map((column) => column.name);
      const columns = sql.raw(written.map((name) => `"${name}"`).join(', '));
      const copied = sql.raw(written.map((name) => `copy."${name}"`).join(', '));
      await tx.execute(sql`
        insert into requests (${columns})
        select ${copied}
        from requests r, generate_series(1, ${count}::int) n,
          jsonb_populate_record(null::requests, to_jsonb(r) || jsonb_build_object('id', md5('r' || ${tag} || n)::uuid,
                'number', r.number * 100000 + ${after}::int + n, 'client_id', md5(${tag} || n)::uuid, 'pre_request_id', null,
                'first_names', ${first}::text, 'last_name_1', ${last}::text, 'last_name_2', null)) copy
        where r.id = ${template!.requestId}`);
      await tx.execute(sql`
        insert into credits
        select (jsonb_populate_record(null::credits, to_jsonb(k) || jsonb_build_object('id', md5('k' || ${tag} || n)::uuid,
                'number', k.number * 100000 + ${after}::int + n, 'request_id', md5('r' || ${tag} || n)::uuid, 'client_id', md5(${tag} || n)::uuid))).*
        from credits k, generate_series(1, ${count}::int) n where k.id = ${template!.id}`);
    });
  }

  it('answers null past SEARCH_COUNT_CAP credited clients, told from the sample or from the index; the same lists, their count capped', async () => {
    // PLUS: 150 credited "Xóchitl Ñandú" first (the sample), then 2,000 clients without a credit, then 150 credited
    // "Yolanda Zúñiga" (beyond the scope's first 2,000 rows: the index).
    await addClients('Xóchitl', 'Ñandú', 'A', 150, true);
    await addClients('Relleno', 'Uno', 'M', 2000, false);
    await addClients('Yolanda', 'Zúñiga', 'Z', 150, true);
    for (const q of ['NANDU', 'zuñiga']) {
      expect(await withScope(ctx.db, scope('PLUS'), (tx) => matchingIds(tx, 'clients', q)), q).toBeNull();
      expect(await withScope(ctx.db, 'all-companies', (tx) => matchingIds(tx, 'clients', q)), `${q} (SA)`).toBeNull();
      expect(await withScope(ctx.db, scope('DEMO'), (tx) => matchingIds(tx, 'clients', q)), `${q} (DEMO)`).toEqual([]);
    }
    // 2,000 clients, none with a credit: no credit matches.
    expect(await withScope(ctx.db, scope('PLUS'), (tx) => matchingIds(tx, 'clients', 'relleno'))).toEqual([]);
    await withScope(ctx.db, scope('PLUS'), async (tx) => {
      for (const q of ['ñandu', 'zúñiga', 'relleno', 'Íñiguez']) {
        const page = (clientIds?: MatchingIds) =>
          creditListSelect(tx)
            .where(creditFilters({ q, clientIds }))
            .orderBy(...creditOrder(undefined))
            .limit(1000);
        expect(await page(await matchingIds(tx, 'clients', q)), q).toEqual(await page());
        // The requests: the same page; past the search's cap, "more than" it without counting.
        const requestsQuery = { q, page: 2, pageSize: 25 };
        const counted = await listRequests(tx, requestsQuery, false);
        const { total, totalCapped } = counted;
        expect(await listRequests(tx, requestsQuery, true), `requests ${q}`).toEqual(
          total > SEARCH_COUNT_CAP ? { ...counted, total: SEARCH_COUNT_CAP, totalCapped: true } : { ...counted, total, totalCapped },
        );
      }
    });
  });

  it('through the API: over SEARCH_COUNT_CAP matching credits answer "more than" and the page; another company’s name nothing', async () => {
    const plus = await ctx.as('plus@demo.mx');
    const cartera = await ctx.as('cartera@demo.mx');
    const admin = await ctx.as('admin@demo.mx');
    const list = async (headers: { authorization: string }, url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(200);
      return response.json<{ items: { folio: string; clientName: string }[]; total: number; totalCapped: boolean }>();
    };
    // Golden: PLUS's credits of a Ñandú client (150, more than the search's cap), in folio order.
    const golden = await ctx.system((tx) =>
      tx
        .select({ number: credits.number, status: credits.status })
        .from(credits)
        .innerJoin(clients, eq(clients.id, credits.clientId))
        .where(eq(clients.lastName1, 'Ñandú'))
        .orderBy(credits.number),
    );
    expect(golden).toHaveLength(150);
    for (const [who, headers] of [
      ['PLUS', plus],
      ['SA', admin],
    ] as const) {
      const answer = await list(headers, '/api/credits?q=%C3%B1and%C3%BA&page=3&pageSize=25');
      expect({ total: answer.total, totalCapped: answer.totalCapped }, who).toEqual({ total: 100, totalCapped: true });
      expect(answer.items.map((item) => item.folio)).toEqual(golden.slice(50, 75).map((row) => creditFolio(row.number)));
      // Narrowed by another filter, the count is the filtered list's own: every copy has the template's status.
      const other = golden[0]!.status === 'vigente' ? 'vencido' : 'vigente';
      const narrowed = await list(headers, `/api/credits?q=nandu&status=${other}&pageSize=25`);
      expect({ total: narrowed.total, totalCapped: narrowed.totalCapped }, who).toEqual({ total: 0, totalCapped: false });
    }
    // A name only the other company has: nothing, and no count of the other company's credits.
    expect(await list(cartera, '/api/credits?q=nandu&pageSize=25')).toEqual({ items: [], total: 0, totalCapped: false });
  });
});
