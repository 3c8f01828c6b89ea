import { z } from 'zod';
import { listResponse, pageQuery } from '../common';
import { route } from '../route-table';

export const outboxMessageSchema = z.object({
  id: z.string(),
  toEmail: z.string(),
  subject: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/**
 * The embedded mode's mail: password-reset and invitation links, newest first, for administrators (who manage
 * users) to pass on when there is no mail server. A link opens an account: reading them takes the permission that
 * issues them (`/user/user-new`, as "Reenviar acceso"), not only the one that lists users.
 */
export const outboxRoutes = {
  list: route({
    method: 'GET',
    path: '/outbox',
    summary: 'Correos del modo embebido (enlaces de acceso y de restablecimiento)',
    tags: ['usuarios'],
    access: { permission: '/user/user-new' },
    query: pageQuery,
    response: { 200: listResponse(outboxMessageSchema) },
  }),
} as const;
