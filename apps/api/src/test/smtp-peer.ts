import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

/**
 * A real SMTP server for tests (the smtp-server package, on 127.0.0.1): STARTTLS with a certificate made for the run,
 * AUTH required over TLS, every message parsed as a mail client would (mailparser). `refuse` decides each recipient's
 * answer, as a receiving server does: nothing to accept, or the code and text to refuse with.
 */
export interface ReceivedMail {
  parsed: ParsedMail;
  raw: string;
  /** The session was upgraded with STARTTLS (or was TLS from the start) before the message was sent. */
  secure: boolean;
  user: string | undefined;
}

export interface SmtpPeer {
  port: number;
  /** The certificate clients must trust (the run's own). */
  ca: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived in all. */
  waitFor(count: number): Promise<ReceivedMail[]>;
  /** How the server answers each recipient; by default it accepts every one. */
  refuse: (recipient: string) => { code: number; message: string } | null;
  url(options?: { implicitTls?: boolean }): string;
  close(): Promise<void>;
}

export const SMTP_USER = 'portal';
export const SMTP_PASSWORD = 'secreto-de-prueba';

const run = promisify(execFile);

/** A certificate for 127.0.0.1, made with openssl for this run only. */
async function certificate(): Promise<{ key: string; cert: string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'portal-smtp-'));
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(folder, 'key.pem'),
      '-out',
      path.join(folder, 'cert.pem'),
    ]);
    return { key: await readFile(path.join(folder, 'key.pem'), 'utf8'), cert: await readFile(path.join(folder, 'cert.pem'), 'utf8') };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

let made: Promise<{ key: string; cert: string }> | null = null;

/** Listens on a port the system gives (never a fixed number two test files could both take); `port` says which. */
export async function startSmtpPeer(options: { implicitTls?: boolean } = {}): Promise<SmtpPeer> {
  const { key, cert } = await (made ??= certificate());
  const received: ReceivedMail[] = [];
  const waiters: { count: number; resolve: (mail: ReceivedMail[]) => void }[] = [];
  const peer: SmtpPeer = {
    port: 0,
    ca: cert,
    received,
    refuse: () => null,
    waitFor: (count) =>
      new Promise((resolve) => {
        if (received.length >= count) resolve(received);
        else waiters.push({ count, resolve });
      }),
    url: ({ implicitTls } = {}) => `${implicitTls ? 'smtps' : 'smtp'}://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${peer.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: options.implicitTls ?? false,
    key,
    cert,
    // AUTH only after STARTTLS (smtp-server's default): a client that would send its password in clear is refused.
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('5.7.8 Credenciales inválidas'), { responseCode: 535 }));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const refusal = peer.refuse(address.address);
      if (refusal) callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      else callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((parsed) => {
          received.push({ parsed, raw, secure: session.secure, user: session.user as string | undefined });
          for (const waiter of [...waiters]) {
            if (received.length >= waiter.count) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(received);
            }
          }
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  peer.port = (server.server.address() as AddressInfo).port;
  return peer;
}
