import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/users';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';

/** main.ts reuses a principal for 5 s; here by the test's clock, so its expiry is a step of the clock, not a wait. */
const TTL_MS = 5_000;

describe.each(ENGINES.slice(0, 1))('the principal reused between requests (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp(engine, { principalTtlMs: TTL_MS, snapshot: true });
  });
  afterAll(() => ctx.close());

  /**
   * reset() puts the database and the clock back, not the process's memory: each test starts one more day after the
   * clock's start (no test here moves it more than a few seconds), past whatever an earlier one cached.
   */
  let days = 0;
  const resetPastCache = async () => {
    await ctx.reset();
    days += 1;
    ctx.clock.advance(days * 24 * 60 * 60 * 1000);
  };
  const setActive = (active: boolean) => ctx.system((tx) => tx.update(users).set({ active }).where(eq(users.email, 'mesa@demo.mx')));
  const requests = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/api/requests', headers: await ctx.as('mesa@demo.mx') })).statusCode;

  it('sees a change written by another process only once the principal is older than its time', async () => {
    await resetPastCache();
    expect(await requests()).toBe(200);
    // Another process deactivates the user: this one still holds the principal it looked up.
    await setActive(false);
    ctx.clock.advance(TTL_MS - 1);
    expect(await requests()).toBe(200);
    ctx.clock.advance(1);
    expect(await requests()).toBe(403);
  });

  it('forgets every principal at once when this process writes a user or a profile, and not on reads', async () => {
    await resetPastCache();
    expect(await requests()).toBe(200);
    const admin = await ctx.as('admin@demo.mx');
    const [mesa] = await ctx.system((tx) =>
      tx.select({ id: users.id, version: users.version }).from(users).where(eq(users.email, 'mesa@demo.mx')),
    );
    // A read of the users' area leaves the cache alone: the direct write below stays unseen.
    await setActive(false);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/users/${mesa!.id}`, headers: admin })).statusCode).toBe(200);
    expect(await requests()).toBe(200);
    await setActive(true);
    // Deactivated through the API of this process: refused on the very next request, no clock step.
    const off = await ctx.app.inject({
      method: 'POST',
      url: `/api/users/${mesa!.id}/status`,
      headers: admin,
      payload: { active: false, version: mesa!.version },
    });
    expect(off.statusCode).toBe(200);
    expect(await requests()).toBe(403);
  });
});
