import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestApp, type TestContext } from '../test/test-app';
import { databaseAdapter } from './oidc-adapter';

describe.each(ENGINES)('the provider storage (%s)', (engine) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp(engine);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('revokes by grant only the revoking model: a sign-in still waiting on its interaction survives the old grant', async () => {
    const Adapter = databaseAdapter(ctx.db, () => new Date());
    const interactions = new Adapter('Interaction');
    const accessTokens = new Adapter('AccessToken');
    const refreshTokens = new Adapter('RefreshToken');
    // Someone else signs in over the session of the last user, whose grant the provider revokes on the way.
    await interactions.upsert('interaction-1', { uid: 'interaction-1', grantId: 'grant-1', kind: 'Interaction' }, 600);
    await accessTokens.upsert('token-1', { grantId: 'grant-1', kind: 'AccessToken' }, 600);
    await refreshTokens.upsert('refresh-1', { grantId: 'grant-1', kind: 'RefreshToken' }, 600);
    await accessTokens.upsert('token-2', { grantId: 'grant-2', kind: 'AccessToken' }, 600);

    await accessTokens.revokeByGrantId('grant-1');

    expect(await accessTokens.find('token-1')).toBeUndefined();
    expect(await accessTokens.find('token-2')).toMatchObject({ grantId: 'grant-2' });
    // The provider revokes model by model: the refresh token goes with its own adapter's call, not this one.
    expect(await refreshTokens.find('refresh-1')).toMatchObject({ grantId: 'grant-1' });
    expect(await interactions.find('interaction-1')).toMatchObject({ uid: 'interaction-1' });
  });
});
