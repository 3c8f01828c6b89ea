import { z } from 'zod';
import { listQuery, listResponse } from '../common';
import { route } from '../route-table';

/** What became of a message (the API's outbox, mail delivery by SMTP). */
export const MAIL_STATUSES = ['unsent', 'pending', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Each status as the list names it. */
export const MAIL_STATUS_LABELS: Record<MailStatus, string> = {
  unsent: 'Sin servidor de correo',
  pending: 'Por enviar',
  sending: 'Enviando',
  sent: 'Enviado',
  failed: 'No se pudo enviar',
};

/** Each kind of message as the list names it; a kind the list does not know reads as "Aviso". */
export const MAIL_KIND_LABELS: Record<string, string> = {
  invitation: 'Invitación',
  'password-reset': 'Restablecer contraseña',
  'email-change': 'Cambio de correo',
  notice: 'Aviso',
};

export const outboxMessageSchema = z.object({
  id: z.string(),
  kind: z.string(),
  toEmail: z.string(),
  subject: z.string(),
  body: z.string(),
  /** The message's link while it has not reached its addressee (for an administrator to pass on); null once sent. */
  link: z.string().nullable(),
  createdAt: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** The mail server's answer to the last failed attempt (or why no connection was made). */
  lastError: z.string().nullable(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxListQuerySchema = listQuery.extend({
  status: z.enum(MAIL_STATUSES, 'Estado no válido.').optional(),
});
export type OutboxListQuery = z.infer<typeof outboxListQuerySchema>;

/**
 * The portal's mail — invitations, password resets, e-mail-change notices — newest first, each with its delivery, for
 * administrators (who manage users): to see what reached whom and, with no mail server or after a failure, to pass a
 * link on. A link opens an account: reading them takes the permission that issues them (`/user/user-new`, as
 * "Reenviar acceso"), not only the one that lists users.
 */
export const outboxRoutes = {
  list: route({
    method: 'GET',
    path: '/outbox',
    summary: 'Correos del portal y su entrega (invitaciones, restablecimientos, avisos)',
    tags: ['usuarios'],
    access: { permission: '/user/user-new' },
    query: outboxListQuerySchema,
    response: { 200: listResponse(outboxMessageSchema) },
  }),
} as const;
