import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../../db/client';
import { asSystem, withScope } from '../../db/scope';
import { outbox, outboxAttachments } from '../../db/schema/audit';
import { companies, profiles, users } from '../../db/schema/users';
import { inspectPasswordLink, issuePasswordLink } from '../../idp/password-links';
import { BEHAVIOUR_ENGINES, createTestApp, postgresScratch, type TestContext } from '../../test/test-app';
import { SMTP_USER, startSmtpPeer, type SmtpPeer } from '../../test/smtp-peer';
import { MAIL_BACKOFF_MS, deliverDueMail } from './mail-delivery';
import { queueMail } from '../shared/mail-queue';
import { smtpTransport } from './smtp-transport';

/** A port nothing listens on (the SMTP peers take ports the system gives, far above it). */
const DOWN_PORT = 3149;
const FROM = 'avisos@financiera.test';

describe.each(BEHAVIOUR_ENGINES)('mail delivery through a real SMTP server (%s)', (engine) => {
  let ctx: TestContext;
  let peer: SmtpPeer;
  let ids: { company: string; cartera: string };
  const transport = (url = peer.url()) => smtpTransport(url, { tls: { ca: peer.ca } });
  const deliver = (through = transport()) => deliverDueMail(ctx.db, through, { now: () => ctx.clock.now(), fromAddress: FROM });
  const messageTo = async (email: string) => (await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, email))))[0]!;
  const createUser = async (email: string) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: await ctx.as('admin@demo.mx'),
      payload: { email, name: 'Nueva Persona', profileId: ids.cartera, companyId: ids.company, active: true },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; version: number }>();
  };

  beforeAll(async () => {
    peer = await startSmtpPeer();
    ctx = await createTestApp(engine, { deliverMail: true, snapshot: true });
    const [company] = await ctx.system((db) => db.select().from(companies).where(eq(companies.code, 'DEMO')));
    const [cartera] = await ctx.system((db) => db.select().from(profiles).where(eq(profiles.name, 'Cartera')));
    ids = { company: company!.id, cartera: cartera!.id };
  });
  beforeEach(async () => {
    await ctx.reset();
    peer.received.length = 0;
    peer.refuse = () => null;
  });
  afterAll(async () => {
    await ctx?.close();
    await peer?.close();
  });

  it('sends an invitation once, over STARTTLS with its credentials, as Spanish text and HTML under the brand, with a link that opens', async () => {
    await createUser('nueva.persona@demo.mx');
    const queued = await messageTo('nueva.persona@demo.mx');
    expect(queued).toMatchObject({ kind: 'invitation', status: 'pending', attempts: 0, nextAttemptAt: ctx.clock.now() });

    expect(await deliver()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    const [mail] = peer.received;
    expect(mail).toMatchObject({ secure: true, user: SMTP_USER });
    const { parsed } = mail!;
    expect(parsed.from?.value).toEqual([{ name: 'Financiera Demo', address: FROM }]);
    expect(parsed.to).toMatchObject({ value: [{ address: 'nueva.persona@demo.mx' }] });
    expect(parsed.subject).toBe('Tu acceso al portal de crédito');
    expect(parsed.messageId).toBe(`<${queued.id}@financiera.test>`);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });

    // Both parts carry the link, which opens the account's set-password page (a live, unused invitation).
    const link = queued.link!;
    expect(link).toMatch(/\/reset-password\?token=[\w-]{43}$/);
    expect(parsed.text).toContain('Te dieron de alta en el portal. Crea tu contraseña con este enlace (vence en 7 días):');
    expect(parsed.text).toContain(link);
    expect(parsed.text).toContain('Financiera Demo, S.A. de C.V., SOFOM, E.N.R.');
    expect(parsed.html).toContain(`href="${link}"`);
    expect(parsed.html).toContain('Crear mi contraseña');
    expect(parsed.html).toContain('lang="es"');
    expect(parsed.html).toContain('>Financiera Demo</td>');
    const token = new URL(link).searchParams.get('token')!;
    expect(await inspectPasswordLink(ctx.db, token, ctx.clock.now())).toMatchObject({
      valid: true,
      email: 'nueva.persona@demo.mx',
      purpose: 'invite',
    });

    expect(await messageTo('nueva.persona@demo.mx')).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentAt: ctx.clock.now(),
      lastError: null,
    });
    // Nothing is sent twice: the next round finds nothing due.
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(peer.received).toHaveLength(1);

    // Administrators see it sent; the link, now its addressee's alone, is no longer shown.
    const listed = await ctx.app.inject({ url: '/api/outbox?status=sent', headers: await ctx.as('admin@demo.mx') });
    expect(listed.json()).toMatchObject({
      total: 1,
      items: [{ toEmail: 'nueva.persona@demo.mx', kind: 'invitation', status: 'sent', attempts: 1, link: null, lastError: null }],
    });
  });

  it('escapes what users typed in the HTML part: an e-mail-change notice names both addresses', async () => {
    const user = await createUser('antes@demo.mx');
    await deliver();
    const changed = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: await ctx.as('admin@demo.mx'),
      payload: {
        email: 'despues@demo.mx',
        name: 'Nueva Persona',
        profileId: ids.cartera,
        companyId: ids.company,
        active: true,
        version: user.version,
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await deliver()).toMatchObject({ sent: 1 });
    const notice = peer.received.at(-1)!.parsed;
    expect(notice.to).toMatchObject({ value: [{ address: 'antes@demo.mx' }] });
    expect(notice.subject).toBe('Cambió el correo de tu acceso al portal');
    expect(notice.text).toContain('El correo de tu usuario del portal cambió de antes@demo.mx a despues@demo.mx.');
    expect(notice.html).toContain('cambió de antes@demo.mx a despues@demo.mx.');

    // A name or address is the user's text: a hostile one is shown, never run (an invented kind of notice with markup).
    await asSystem(ctx.db, (tx) =>
      queueMail(
        tx,
        { deliver: true, print: () => undefined },
        {
          companyId: ids.company,
          toEmail: 'x@demo.mx',
          content: { kind: 'notice', subject: 'Aviso', paragraphs: ['<script>alert(1)</script> & "comillas"'] },
        },
        ctx.clock.now(),
      ),
    );
    await deliver();
    expect(peer.received.at(-1)!.parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;comillas&quot;');
  });

  it('keeps a 5xx refusal of the message as failed, with the server’s answer, and tries it no more', async () => {
    peer.refuse = (recipient) => (recipient === 'inexistente@demo.mx' ? { code: 550, message: '5.1.1 Buzón inexistente' } : null);
    await createUser('inexistente@demo.mx');
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const failed = await messageTo('inexistente@demo.mx');
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null, sentAt: null });
    expect(failed.lastError).toMatch(/^550 5\.1\.1 Buzón inexistente/);

    ctx.clock.advance(24 * 60 * 60_000);
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    const listed = await ctx.app.inject({ url: '/api/outbox?status=failed', headers: await ctx.as('admin@demo.mx') });
    // Undelivered, its link is still shown to the administrator, who may pass it on another way.
    expect(listed.json()).toMatchObject({
      total: 1,
      items: [{ status: 'failed', attempts: 1, lastError: expect.stringContaining('Buzón inexistente'), link: failed.link }],
    });
  });

  it('retries a 4xx answer after the backoff and sends it when the server takes it', async () => {
    let refusals = 1;
    peer.refuse = () => (refusals-- > 0 ? { code: 451, message: '4.3.0 Intenta más tarde' } : null);
    await createUser('ocupado@demo.mx');
    const firstTry = ctx.clock.now();
    expect(await deliver()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    const waiting = await messageTo('ocupado@demo.mx');
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lastAttemptAt: firstTry });
    expect(waiting.lastError).toMatch(/^451 4\.3\.0 Intenta más tarde/);
    expect(waiting.nextAttemptAt!.getTime() - firstTry.getTime()).toBe(MAIL_BACKOFF_MS[0]);

    // Not before its time…
    ctx.clock.advance(MAIL_BACKOFF_MS[0]! - 1_000);
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    // …and at it.
    ctx.clock.advance(1_000);
    expect(await deliver()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(await messageTo('ocupado@demo.mx')).toMatchObject({ status: 'sent', attempts: 2, lastError: null, nextAttemptAt: null });
    expect(peer.received).toHaveLength(1);
  });

  it('retries a server that is down with a growing backoff, and gives up after the last attempt saying why', async () => {
    await createUser('sin.servidor@demo.mx');
    const down = transport(`smtp://127.0.0.1:${DOWN_PORT}`);
    for (const [index, wait] of MAIL_BACKOFF_MS.entries()) {
      expect(await deliver(down)).toEqual({ sent: 0, retrying: 1, failed: 0 });
      const row = await messageTo('sin.servidor@demo.mx');
      expect(row).toMatchObject({ status: 'pending', attempts: index + 1 });
      expect(row.lastError).toMatch(/^No se pudo conectar con el servidor de correo: .*ECONNREFUSED/);
      expect(row.nextAttemptAt!.getTime() - row.lastAttemptAt!.getTime()).toBe(wait);
      ctx.clock.set(row.nextAttemptAt!);
    }
    expect(await deliver(down)).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect(await messageTo('sin.servidor@demo.mx')).toMatchObject({
      status: 'failed',
      attempts: MAIL_BACKOFF_MS.length + 1,
      nextAttemptAt: null,
      lastError: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('sends the files a message carries', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2048, 7), Buffer.from('\n%%EOF\n')]);
    await asSystem(ctx.db, (tx) =>
      queueMail(
        tx,
        { deliver: true, print: () => undefined },
        {
          companyId: ids.company,
          toEmail: 'rh@empresa.test',
          content: { kind: 'notice', subject: 'Cédula de descuentos', paragraphs: ['Adjuntamos la cédula del periodo.'] },
          attachments: [{ fileName: 'cédula 2026-11.pdf', contentType: 'application/pdf', content: pdf }],
        },
        ctx.clock.now(),
      ),
    );
    expect(await deliver()).toMatchObject({ sent: 1 });
    const [attachment] = peer.received[0]!.parsed.attachments;
    expect(attachment).toMatchObject({ filename: 'cédula 2026-11.pdf', contentType: 'application/pdf' });
    expect(Buffer.compare(attachment!.content, pdf)).toBe(0);
    // The files are the company's: another company's scope sees none of them (row-level security).
    const [plus] = await ctx.system((db) => db.select().from(companies).where(eq(companies.code, 'PLUS')));
    expect(await withScope(ctx.db, { companyId: plus!.id }, (tx) => tx.select().from(outboxAttachments))).toEqual([]);
    expect(await withScope(ctx.db, { companyId: ids.company }, (tx) => tx.select().from(outboxAttachments))).toHaveLength(1);
  });
});

describe('SMTP over implicit TLS (smtps://)', () => {
  it('sends with TLS from the first byte', async () => {
    const peer = await startSmtpPeer({ implicitTls: true });
    const ctx = await createTestApp('pglite', { deliverMail: true });
    try {
      const [company] = await ctx.system((db) => db.select().from(companies).where(eq(companies.code, 'PLUS')));
      await asSystem(ctx.db, (tx) =>
        queueMail(
          tx,
          { deliver: true, print: () => undefined },
          {
            companyId: company!.id,
            toEmail: 'plus@demo.mx',
            content: { kind: 'password-reset', link: 'https://portal.test/oidc/reset-password?token=abc' },
          },
          ctx.clock.now(),
        ),
      );
      const round = await deliverDueMail(ctx.db, smtpTransport(peer.url({ implicitTls: true }), { tls: { ca: peer.ca } }), {
        now: () => ctx.clock.now(),
        fromAddress: FROM,
      });
      expect(round).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(peer.received[0]).toMatchObject({ secure: true, user: SMTP_USER });
      expect(peer.received[0]!.parsed.from?.value).toEqual([{ name: 'Crédito Nómina Plus', address: FROM }]);
      expect(peer.received[0]!.parsed.subject).toBe('Restablece tu contraseña del portal');
    } finally {
      await ctx.close();
      await peer.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('keeps the embedded behaviour: the message stays in the portal, printed with its link, and no sender takes it', async () => {
    const printed: string[] = [];
    const ctx = await createTestApp('pglite');
    try {
      const [user] = await ctx.system((db) => db.select().from(users).where(eq(users.email, 'cartera@demo.mx')));
      const link = await asSystem(ctx.db, (tx) =>
        issuePasswordLink(tx, user!, 'reset', {
          issuer: 'https://portal.test/oidc',
          now: ctx.clock.now(),
          mail: { deliver: false, print: (line) => printed.push(line) },
        }),
      );
      const [message] = await ctx.system((db) => db.select().from(outbox).where(eq(outbox.toEmail, 'cartera@demo.mx')));
      expect(message).toMatchObject({ kind: 'password-reset', status: 'unsent', attempts: 0, nextAttemptAt: null, link });
      expect(printed).toEqual([`[correo a cartera@demo.mx] Restablece tu contraseña del portal: ${link}`]);
      // A sender finds nothing to send.
      const round = await deliverDueMail(ctx.db, smtpTransport(`smtp://127.0.0.1:${DOWN_PORT}`), {
        now: () => ctx.clock.now(),
        fromAddress: FROM,
      });
      expect(round).toEqual({ sent: 0, retrying: 0, failed: 0 });
    } finally {
      await ctx.close();
    }
  });
});

describe.skipIf(!inject('postgresTemplate'))('two senders on one PostgreSQL database', () => {
  it('deliver each message exactly once', async () => {
    const scratch = await postgresScratch('template');
    const peer = await startSmtpPeer();
    const databases: Database[] = [];
    try {
      databases.push(
        await openDatabase({ kind: 'postgres', url: scratch.url }),
        await openDatabase({ kind: 'postgres', url: scratch.url }),
      );
      const [first, second] = databases as [Database, Database];
      const now = new Date();
      const TOTAL = 40;
      await asSystem(first.db, async (tx) => {
        const [company] = await tx.select().from(companies).where(eq(companies.code, 'DEMO'));
        for (let index = 0; index < TOTAL; index++) {
          await queueMail(
            tx,
            { deliver: true, print: () => undefined },
            {
              companyId: company!.id,
              toEmail: `persona${index}@demo.mx`,
              content: { kind: 'password-reset', link: `https://portal.test/r?token=${index}` },
            },
            now,
          );
        }
      });
      // Both claim at once, a few messages at a time, until neither finds one due.
      const sender = (database: Database) =>
        deliverDueMail(database.db, smtpTransport(peer.url(), { tls: { ca: peer.ca } }), {
          now: () => now,
          fromAddress: FROM,
          batchSize: 3,
        });
      const rounds = await Promise.all([sender(first), sender(second), sender(first), sender(second)]);
      expect(rounds.reduce((sum, round) => sum + round.sent, 0)).toBe(TOTAL);

      const ids = peer.received.map((mail) => mail.parsed.messageId);
      expect(ids).toHaveLength(TOTAL);
      expect(new Set(ids).size).toBe(TOTAL);
      const rows = await asSystem(first.db, (tx) => tx.select({ status: outbox.status, attempts: outbox.attempts }).from(outbox));
      expect(rows.filter((row) => row.status === 'sent' && row.attempts === 1)).toHaveLength(TOTAL);
    } finally {
      for (const database of databases) await database.close();
      await peer.close();
      await scratch.drop();
    }
  });
});
