import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** One message as the sender hands it to the mail server. */
export interface OutgoingMail {
  /** The Message-ID, the same on every attempt of one outbox message, so a receiver can tell a repeat. */
  messageId: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: { fileName: string; contentType: string; content: Buffer }[];
}

/** Sends one message; resolves with the server's answer (`250 …`) or throws nodemailer's error. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/**
 * The SMTP client (nodemailer, docs/decisions/0023-mail-through-smtp-from-the-outbox.md) for SMTP_URL:
 *   smtps://user:pass@host:465 — TLS from the first byte;
 *   smtp://user:pass@host:587 — STARTTLS, required when the URL carries credentials (a password never crosses in
 *   clear), taken when offered otherwise (a relay on the local network, port 25).
 * A private certificate authority is trusted through NODE_EXTRA_CA_CERTS; `tls` is for tests.
 */
export function smtpTransport(url: string, options: { tls?: { ca?: string | Buffer } } = {}): MailTransport {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'smtps:';
  const auth = parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined;
  const config: SMTPTransport.Options = {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && auth !== undefined,
    ...(auth ? { auth } : {}),
    // A server that does not answer holds one message up, never the sender: it is retried later.
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    ...(options.tls ? { tls: options.tls } : {}),
  };
  const transporter = nodemailer.createTransport(config);
  return {
    async send(mail) {
      const info = await transporter.sendMail({
        messageId: mail.messageId,
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        attachments: mail.attachments.map((file) => ({ filename: file.fileName, contentType: file.contentType, content: file.content })),
      });
      return info.response;
    },
    close: () => transporter.close(),
  };
}

/** What became of an attempt that threw: the server's own answer when it gave one, and whether to try again. */
export interface AttemptFailure {
  /** A 5xx answer to the message itself (its sender, addressee or content): sending it again would get the same. */
  permanent: boolean;
  answer: string;
}

/** nodemailer's codes for a refusal of the message (as opposed to the connection, TLS or credentials). */
const MESSAGE_REFUSALS = new Set(['EENVELOPE', 'EMESSAGE']);

/**
 * RFC 5321 §4.2.1: a 5yz reply is permanent, a 4yz transient. A 5xx to the envelope or the data fails the message at
 * once; anything else — 4xx, no connection, a timeout, TLS, or credentials refused (the portal's configuration, which
 * an operator fixes, not the message's fault) — is tried again with backoff.
 */
export function classifyFailure(error: unknown): AttemptFailure {
  const failure = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const code = failure.responseCode;
  const permanent = typeof code === 'number' && code >= 500 && code < 600 && MESSAGE_REFUSALS.has(failure.code ?? '');
  if (failure.response) return { permanent, answer: failure.response.trim() };
  const reason = failure.message ?? String(error);
  if (failure.code === 'ECONNECTION' || failure.code === 'ESOCKET' || failure.code === 'EDNS') {
    return { permanent, answer: `No se pudo conectar con el servidor de correo: ${reason}` };
  }
  if (failure.code === 'ETIMEDOUT') return { permanent, answer: `El servidor de correo no respondió a tiempo: ${reason}` };
  return { permanent, answer: failure.code ? `${failure.code}: ${reason}` : reason };
}
