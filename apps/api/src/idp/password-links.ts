import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { asSystem } from '../db/scope';
import { auditEvents } from '../db/schema/audit';
import { passwordTokens } from '../db/schema/idp';
import { users } from '../db/schema/users';
import { queueMail, type MailSettings } from '../modules/shared/mail-queue';
import { hashPassword, passwordProblem } from './passwords';
import { endProviderSignIns } from './oidc-adapter';

export type LinkPurpose = 'reset' | 'invite';

export const LIFETIME_MS: Record<LinkPurpose, number> = { reset: 60 * 60 * 1000, invite: 7 * 24 * 60 * 60 * 1000 };

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface LinkOptions {
  /** The provider's public base, e.g. http://localhost:3000/oidc. */
  issuer: string;
  now: Date;
  /** How the link is mailed: by SMTP, or (embedded mode) to the outbox and the console. */
  mail: MailSettings;
}

/**
 * Issues a one-time link to set a password and mails it through the outbox (shared/mail-queue.ts: by SMTP when configured,
 * otherwise kept for administrators and printed on the console). Only the token's hash is stored.
 */
export async function issuePasswordLink(
  db: Db | Tx,
  user: { id: string; email: string; companyId: string },
  purpose: LinkPurpose,
  options: LinkOptions,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const link = `${options.issuer}/reset-password?token=${token}`;
  await db.transaction(async (tx) => {
    await tx.insert(passwordTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      purpose,
      expiresAt: new Date(options.now.getTime() + LIFETIME_MS[purpose]),
    });
    await queueMail(
      tx,
      options.mail,
      { companyId: user.companyId, toEmail: user.email, content: { kind: purpose === 'invite' ? 'invitation' : 'password-reset', link } },
      options.now,
    );
  });
  return link;
}

/** Spends every unused link of a user (its e-mail changed: links sent to the old address must open nothing). */
export async function revokePasswordLinks(db: Db | Tx, userId: string, now: Date): Promise<void> {
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
}

export type LinkState = { valid: true; userId: string; email: string; purpose: LinkPurpose } | { valid: false; reason: string };

const INVALID_LINK = 'El enlace no es válido, ya se usó o expiró. Pide uno nuevo.';

/** Links are redeemed before anyone signs in: the lookup spans companies, as the provider's own work. */
export async function inspectPasswordLink(db: Db, token: string, now: Date): Promise<LinkState> {
  const [row] = await asSystem(db, (tx) =>
    tx
      .select({ userId: users.id, email: users.email, purpose: passwordTokens.purpose, active: users.active })
      .from(passwordTokens)
      .innerJoin(users, eq(users.id, passwordTokens.userId))
      .where(and(eq(passwordTokens.tokenHash, hashToken(token)), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)))
      .limit(1),
  );
  if (!row || !row.active) return { valid: false, reason: INVALID_LINK };
  return { valid: true, userId: row.userId, email: row.email, purpose: row.purpose };
}

/**
 * Sets the new password and spends the link in one transaction; a second use, an expired link or a concurrent
 * use finds no unused row and changes nothing. Also lifts a lockout: proving the mailbox is enough.
 */
export async function redeemPasswordLink(
  db: Db,
  input: { token: string; password: string; confirmation: string },
  now: Date,
): Promise<{ ok: true; email: string } | { ok: false; error: string; linkUsable: boolean }> {
  if (input.password !== input.confirmation) return { ok: false, error: 'Las contraseñas no coinciden.', linkUsable: true };
  const weakness = passwordProblem(input.password);
  if (weakness) return { ok: false, error: weakness, linkUsable: true };
  const passwordHash = await hashPassword(input.password);
  return asSystem(db, async (tx) => {
    const [spent] = await tx
      .update(passwordTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordTokens.tokenHash, hashToken(input.token)), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)))
      .returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
    if (!spent) return { ok: false as const, error: INVALID_LINK, linkUsable: false };
    const [user] = await tx
      .update(users)
      .set({
        passwordHash,
        failedAttempts: 0,
        lockedUntil: null,
        updatedAt: now,
        version: sql`${users.version} + 1`,
        // A new password ends every token of the old one (a reset after a stolen password, issue 44).
        tokensValidAfter: sql`clock_timestamp()`,
      })
      .where(and(eq(users.id, spent.userId), eq(users.active, true)))
      .returning({ id: users.id, email: users.email });
    if (!user) return { ok: false as const, error: INVALID_LINK, linkUsable: false };
    await endProviderSignIns(tx, user.id);
    await tx.insert(auditEvents).values({
      occurredAt: now,
      actorId: user.id,
      actorEmail: user.email,
      action: spent.purpose === 'invite' ? 'password.set' : 'password.reset',
      entity: 'user',
      entityId: user.id,
    });
    return { ok: true as const, email: user.email };
  });
}
