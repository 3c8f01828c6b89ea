import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { asSystem } from '../../db/scope';
import { outbox, outboxAttachments } from '../../db/schema/audit';
import { classifyFailure, type MailTransport } from './smtp-transport';

/**
 * Mail delivery from the outbox (docs/decisions/0023-mail-through-smtp-from-the-outbox.md). The message's row is its
 * own queue entry: a sender claims due rows with FOR UPDATE SKIP LOCKED and marks them `sending` until a lease ends,
 * so several API processes on one database each take different messages and every message is handed to the mail
 * server by one of them; the outcome of each attempt is written back to the row. A process that dies mid-attempt
 * leaves its message `sending`; after the lease another process takes it up again (same Message-ID).
 */

/** The wait after each failed attempt: the 1st retry a minute later, the last about five hours after the first try. */
export const MAIL_BACKOFF_MS: readonly number[] = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000];

/** How long a claimed message is its sender's: longer than an attempt can last (smtp-transport.ts's timeouts). */
export const CLAIM_LEASE_MS = 5 * 60_000;

export interface DeliveryOptions {
  now: () => Date;
  /** MAIL_FROM's address; the display name is the message's company. */
  fromAddress: string;
  /** Waits between attempts; one attempt more than waits in all. */
  backoffMs?: readonly number[];
  /** Messages one claim takes. */
  batchSize?: number;
  log?: { info(object: object, message: string): void; warn(object: object, message: string): void };
}

export interface DeliveryRound {
  sent: number;
  retrying: number;
  failed: number;
}

interface Claimed {
  id: string;
  kind: string;
  to_email: string;
  subject: string;
  body: string;
  html: string | null;
  attempts: number;
  brand: string;
}

/** Claims the due messages: pending ones whose time came, and sending ones whose sender's lease ran out. */
async function claimDue(db: Db, now: Date, batchSize: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const leaseEnd = new Date(now.getTime() + CLAIM_LEASE_MS).toISOString();
  return asSystem(db, async (tx) => {
    const result = await tx.execute(sql`
      update outbox o set status = 'sending', attempts = o.attempts + 1, last_attempt_at = ${at}::timestamptz, claimed_until = ${leaseEnd}::timestamptz
      from companies c
      where c.id = o.company_id and o.id in (
        select id from outbox
        where (status = 'pending' and next_attempt_at <= ${at}::timestamptz) or (status = 'sending' and claimed_until <= ${at}::timestamptz)
        order by next_attempt_at
        limit ${batchSize}
        for update skip locked)
      returning o.id, o.kind, o.to_email, o.subject, o.body, o.html, o.attempts, c.name as brand`);
    return (result as unknown as { rows: Claimed[] }).rows;
  });
}

/** Sends every message due now, one claim after another until none is left; answers what became of them. */
export async function deliverDueMail(db: Db, transport: MailTransport, options: DeliveryOptions): Promise<DeliveryRound> {
  const backoff = options.backoffMs ?? MAIL_BACKOFF_MS;
  const round: DeliveryRound = { sent: 0, retrying: 0, failed: 0 };
  for (;;) {
    const claimed = await claimDue(db, options.now(), options.batchSize ?? 10);
    if (claimed.length === 0) return round;
    const files = await asSystem(db, (tx) =>
      tx
        .select()
        .from(outboxAttachments)
        .where(
          inArray(
            outboxAttachments.messageId,
            claimed.map((message) => message.id),
          ),
        )
        .orderBy(asc(outboxAttachments.createdAt), asc(outboxAttachments.id)),
    );
    for (const message of claimed) {
      let outcome: Partial<typeof outbox.$inferInsert>;
      try {
        const answer = await transport.send({
          messageId: `<${message.id}@${options.fromAddress.split('@')[1] ?? 'portal'}>`,
          from: { name: message.brand, address: options.fromAddress },
          to: message.to_email,
          subject: message.subject,
          text: message.body,
          html: message.html,
          attachments: files.filter((file) => file.messageId === message.id),
        });
        outcome = { status: 'sent', sentAt: options.now(), lastError: null, nextAttemptAt: null, claimedUntil: null };
        round.sent += 1;
        options.log?.info({ outboxId: message.id, kind: message.kind, attempts: message.attempts, answer }, 'mail sent');
      } catch (error) {
        const { permanent, answer } = classifyFailure(error);
        const wait = backoff[message.attempts - 1];
        if (!permanent && wait !== undefined) {
          const nextAttemptAt = new Date(options.now().getTime() + wait);
          outcome = { status: 'pending', lastError: answer, nextAttemptAt, claimedUntil: null };
          round.retrying += 1;
          options.log?.warn({ outboxId: message.id, attempts: message.attempts, answer, nextAttemptAt }, 'mail attempt failed, will retry');
        } else {
          outcome = { status: 'failed', lastError: answer, nextAttemptAt: null, claimedUntil: null };
          round.failed += 1;
          options.log?.warn({ outboxId: message.id, attempts: message.attempts, answer, permanent }, 'mail failed');
        }
      }
      await asSystem(db, (tx) => tx.update(outbox).set(outcome).where(eq(outbox.id, message.id)));
    }
  }
}

export interface MailDelivery {
  /** Finishes the round in progress, then stops and closes the connection to the mail server. */
  stop(): Promise<void>;
}

/**
 * This process's sender: a round every `intervalMs` (messages written by any process, retries that came due). A
 * round's error (the database unreachable) is logged and the next round tries again.
 */
export function startMailDelivery(
  db: Db,
  transport: MailTransport,
  options: DeliveryOptions & { intervalMs?: number; onError?: (error: unknown) => void },
): MailDelivery {
  const intervalMs = options.intervalMs ?? 5_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        if (stopped) return;
        try {
          await deliverDueMail(db, transport, options);
        } catch (error) {
          options.onError?.(error);
        }
        schedule(intervalMs);
      });
    }, delay);
  };
  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
