import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { outbox, outboxAttachments } from '../../db/schema/audit';
import { companies } from '../../db/schema/users';
import { renderMail, type MailContent } from './mail-templates';

/** How this process hands over what it mails. */
export interface MailSettings {
  /** SMTP_URL is set: a message waits in the outbox for a sender (mail-delivery.ts) and is not printed. */
  deliver: boolean;
  /** Without a mail server (the embedded mode), where a message is shown besides the outbox: the console. */
  print: (line: string) => void;
}

export const CONSOLE_MAIL: MailSettings = { deliver: false, print: (line) => console.log(line) };

export interface Attachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/**
 * Writes a message to the outbox inside the caller's transaction, so it exists only if what caused it commits: with
 * SMTP it waits for a sender, due at once; without, it stays in the portal for administrators to pass on and is
 * printed on the console (a link too: in the embedded mode nobody else can reach the addressee). The company's brand
 * is read here, so the stored message is the one sent.
 */
export async function queueMail(
  db: Db | Tx,
  mail: MailSettings,
  message: { companyId: string; toEmail: string; content: MailContent; attachments?: Attachment[] },
  now: Date,
): Promise<void> {
  const [brand] = await db
    .select({ name: companies.name, legalName: companies.legalName })
    .from(companies)
    .where(eq(companies.id, message.companyId));
  const rendered = renderMail(message.content, brand ?? { name: 'Portal de crédito', legalName: 'Portal de crédito' });
  const link = 'link' in message.content ? (message.content.link ?? null) : null;
  const [written] = await db
    .insert(outbox)
    .values({
      companyId: message.companyId,
      kind: message.content.kind,
      toEmail: message.toEmail,
      subject: rendered.subject,
      body: rendered.text,
      html: rendered.html,
      link,
      status: mail.deliver ? 'pending' : 'unsent',
      nextAttemptAt: mail.deliver ? now : null,
    })
    .returning({ id: outbox.id });
  if (message.attachments?.length) {
    await db
      .insert(outboxAttachments)
      .values(message.attachments.map((file) => ({ ...file, companyId: message.companyId, messageId: written!.id })));
  }
  if (!mail.deliver) mail.print(`[correo a ${message.toEmail}] ${rendered.subject}${link ? `: ${link}` : ''}`);
}
