import { and, eq, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db, Tx } from '../db/client';
import { oidcModels } from '../db/schema/idp';

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, refresh tokens) in the portal's database, so a
 * restart signs nobody out and several API instances share one provider state.
 */
export function databaseAdapter(db: Db, now: () => Date) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcModels)
        .values(row)
        .onConflictDoUpdate({ target: [oidcModels.model, oidcModels.id], set: row });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oidcModels.id, id));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oidcModels.userCode, userCode));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oidcModels.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcModels)
        .set({ consumedAt: now() })
        .where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.id, id)));
    }

    /**
     * The provider calls this on each token model's adapter in turn (access and refresh tokens, codes…) and destroys
     * the grant itself: only this model's rows go. Other rows carry the grant's id too — an interaction still waiting
     * for its sign-in does — and deleting them broke signing in as someone else over the last user's session.
     */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcModels).where(and(eq(oidcModels.model, this.model), eq(oidcModels.grantId, grantId)));
    }

    private async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcModels.payload, consumedAt: oidcModels.consumedAt })
        .from(oidcModels)
        .where(
          and(eq(oidcModels.model, this.model), condition, sql`(${oidcModels.expiresAt} is null or ${oidcModels.expiresAt} > ${now()})`),
        )
        .limit(1);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/**
 * Ends every sign-in of an account at the embedded provider: its sessions (the next sign-in asks for the password),
 * its grants (the API refuses their access tokens at once, see http/auth.ts) and what was issued under them (codes,
 * refresh tokens). For a user deactivated, moved, renamed or given a new password (issue 44).
 */
export async function endProviderSignIns(db: Db | Tx, accountId: string): Promise<void> {
  await db.execute(sql`
    delete from ${oidcModels}
    where (${oidcModels.model} in ('Session', 'Grant') and ${oidcModels.payload} ->> 'accountId' = ${accountId})
       or ${oidcModels.grantId} in (
         select ${oidcModels.id} from ${oidcModels} where ${oidcModels.model} = 'Grant' and ${oidcModels.payload} ->> 'accountId' = ${accountId}
       )`);
}
