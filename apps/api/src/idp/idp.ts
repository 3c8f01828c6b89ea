import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { errors as oidcErrors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { asSystem } from '../db/scope';
import { appSecrets } from '../db/schema/idp';
import { users } from '../db/schema/users';
import type { Clock } from '../deps';
import { verifyPassword, hashPassword } from './passwords';
import { databaseAdapter } from './oidc-adapter';
import { forgotPasswordPage, loginPage, messagePage, page, resetPasswordPage } from './pages';
import { inspectPasswordLink, issuePasswordLink, redeemPasswordLink } from './password-links';
import { DEFAULT_RATE_LIMITS, hitRateLimit, releaseRateLimit, type IdpRateLimits } from './rate-limits';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MINUTES = 15;
/** The single scope of the portal's API (the resource server); the web client asks for it. */
/** The access token's claim naming its grant (see extraTokenClaims). */
export const GRANT_CLAIM = 'gid';

export const API_SCOPE = 'api';

/** The sign-out page's auto-submit, served as a file so the CSP needs no inline script. */
const LOGOUT_SCRIPT = 'submit-logout.js';

export interface EmbeddedIdpOptions {
  db: Db;
  /** Public base of the provider, e.g. http://localhost:3000/oidc. */
  issuer: string;
  /** Public base of the portal, where the SPA's callback and sign-in pages live. */
  publicUrl: string;
  clientId: string;
  /** The API's resource indicator: the `aud` of every access token. */
  audience: string;
  /** Access (and ID) token lifetime in seconds; the browser renews silently a minute before it ends. */
  accessTokenTtl?: number;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Where the embedded mode "mails" links; the console by default. */
  print?: (line: string) => void;
  /** SMTP_URL is set: a reset link waits in the outbox for a sender instead of being printed. */
  deliverMail?: boolean;
  /** Whether X-Forwarded-Host/-Proto are believed (TRUST_PROXY); off, the provider builds its URLs from the request itself. */
  trustProxy?: boolean;
  /** Sign-in and forgot-password limits; tests lower or raise them. */
  rateLimits?: Partial<IdpRateLimits>;
}

export interface EmbeddedIdp {
  plugin: FastifyPluginAsync;
  /** The provider's public signing keys, for the API's token checks. */
  keys: JWTVerifyGetKey;
  provider: Provider;
}

type Form = Record<string, string | undefined>;

/** Generated once, kept in the database: a restart (or a second instance) signs with the same keys. */
async function persistentSecret<T>(db: Db, key: string, create: () => Promise<T>): Promise<T> {
  const [existing] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, key));
  if (existing) return existing.value as T;
  await db
    .insert(appSecrets)
    .values({ key, value: await create() })
    .onConflictDoNothing();
  const [stored] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, key));
  return stored!.value as T;
}

async function signingKeys(db: Db): Promise<JSONWebKeySet & { keys: JWK[] }> {
  return persistentSecret(db, 'oidc.jwks', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(privateKey);
    return { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }] };
  });
}

const publicPart = ({ kty, n, e, kid, alg, use }: JWK): JWK => ({ kty, n, e, kid, alg, use });

/**
 * A scrypt hash to compare against when the e-mail is unknown, so the answer takes as long either way. Made on the
 * first unknown e-mail, not at import: start-up (and an external-provider deployment) does not pay for it.
 */
let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= hashPassword('contraseña-de-relleno-0'));

export async function createEmbeddedIdp(options: EmbeddedIdpOptions): Promise<EmbeddedIdp> {
  const { db, issuer, publicUrl, clientId, audience, clock, log } = options;
  const accessTokenTtl = options.accessTokenTtl ?? 15 * 60;
  const mail = { deliver: options.deliverMail ?? false, print: options.print ?? ((line: string) => console.log(line)) };
  const jwks = await signingKeys(db);
  const cookieKeys = await persistentSecret(db, 'oidc.cookie-keys', async () => [randomBytes(32).toString('base64url')]);
  const mountPath = new URL(issuer).pathname.replace(/\/$/, '');

  /** The provider works before any company is known: its account lookups and counters span companies. */
  const system = <T>(work: (tx: Db) => Promise<T>) => asSystem(db, work);

  const configuration: Configuration = {
    adapter: databaseAdapter(db, () => clock.now()),
    clients: [
      {
        client_id: clientId,
        client_name: 'Portal de crédito',
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${publicUrl}/auth-callback.html`],
        post_logout_redirect_uris: [`${publicUrl}/session/signin`],
      },
    ],
    jwks,
    cookies: { keys: cookieKeys, long: { signed: true }, short: { signed: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The SPA reads the e-mail from the ID token to run the user lookup.
    conformIdTokenClaims: false,
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    ttl: {
      AccessToken: accessTokenTtl,
      AuthorizationCode: 60,
      IdToken: accessTokenTtl,
      Interaction: 30 * 60,
      Session: 12 * 60 * 60,
      Grant: 12 * 60 * 60,
      RefreshToken: 12 * 60 * 60,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // The portal's logout already asked; the provider's confirmation submits itself.
        logoutSource: async (ctx, form) => {
          ctx.body = page({
            title: 'Cerrando sesión',
            body: `<p>Estamos cerrando tu sesión…</p>${form}
<input type="hidden" form="op.logoutForm" name="logout" value="yes">
<noscript><button type="submit" form="op.logoutForm">Cerrar sesión</button></noscript>`,
            scriptSrc: `${mountPath}/${LOGOUT_SCRIPT}`,
          });
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = messagePage({
            title: 'Sesión cerrada',
            kind: 'success',
            message: 'Cerraste tu sesión en el portal.',
            link: { href: `${publicUrl}/session/signin`, label: 'Volver a iniciar sesión' },
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== audience) throw new oidcErrors.InvalidTarget();
          return { scope: API_SCOPE, audience, accessTokenFormat: 'jwt', accessTokenTTL: accessTokenTtl, jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    extraTokenClaims: async (_ctx, token) => {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const accountId = token.accountId;
      const [user] = await system((tx) => tx.select({ email: users.email }).from(users).where(eq(users.id, accountId)));
      // `gid`: the grant the token was issued under. Sign-out and a replayed code destroy the grant, and the API refuses
      // the token from then on (http/auth.ts, loadTokenHolder), not only once it expires.
      const grantId = 'grantId' in token && typeof token.grantId === 'string' ? { [GRANT_CLAIM]: token.grantId } : {};
      return user ? { email: user.email, ...grantId } : undefined;
    },
    // Every token and code ends with the sign-in's session, offline_access or not: sign-out means signed out.
    expiresWithSession: async () => true,
    findAccount: async (_ctx, id) => {
      const [user] = await system((tx) =>
        tx.select({ id: users.id, email: users.email, name: users.name, active: users.active }).from(users).where(eq(users.id, id)),
      );
      if (!user?.active) return undefined;
      return {
        accountId: user.id,
        claims: async () => ({ sub: user.id, email: user.email, email_verified: true, name: user.name ?? user.email }),
      };
    },
    // First-party client: no consent screen; the grant covers the portal's scopes and its API.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) {
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        if (grant) return grant;
      }
      if (!ctx.oidc.session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile offline_access');
      grant.addResourceScope(audience, API_SCOPE);
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      log.warn({ error: out.error, description: out.error_description }, 'oidc error');
      ctx.type = 'html';
      ctx.body = messagePage({
        title: 'No se pudo completar el inicio de sesión',
        kind: 'error',
        message: 'La solicitud de inicio de sesión no es válida o ya venció. Cierra esta ventana e inténtalo de nuevo desde el portal.',
        link: { href: `${publicUrl}/session/signin`, label: 'Ir al portal' },
      });
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = options.trustProxy ?? false;
  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => log.error({ err: error }, 'oidc server error'));

  const limits: IdpRateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const INVALID = `Correo o contraseña incorrectos. Después de ${MAX_FAILED_ATTEMPTS} intentos fallidos la cuenta se bloquea ${LOCK_MINUTES} minutos.`;
  const tooMany = (minutes: number) => ({
    error: `Demasiados intentos. Espera ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'} e inténtalo de nuevo.`,
    status: 429,
    retryAfterMinutes: minutes,
  });

  type SignInOutcome = { accountId: string } | { error: string; status: number; retryAfterMinutes?: number };

  /**
   * Checks a password with rate limits and lockout. The attempt is counted in the database before the password is
   * verified (one UPDATE that refuses a locked account), so concurrent guesses, in this process or another, can
   * never evaluate more than MAX_FAILED_ATTEMPTS passwords. Unknown, wrong and locked all answer the same after one
   * scrypt; only the right password of a locked account learns that it is locked.
   */
  async function authenticate(emailInput: string, password: string, address: string): Promise<SignInOutcome> {
    const email = emailInput.trim().toLowerCase();
    const now = clock.now();
    const counters = [
      [`sign-in:address:${address}`, limits.signInPerAddress],
      [`sign-in:account:${email}`, limits.signInPerAccount],
    ] as const;
    for (const [key, limit] of counters) {
      const outcome = await hitRateLimit(db, key, limit, now);
      if (!outcome.allowed) return tooMany(outcome.retryAfterMinutes);
    }
    const lockEnd = new Date(now.getTime() + LOCK_MINUTES * 60_000);
    const lockExpired = and(sql`${users.lockedUntil} is not null`, lte(users.lockedUntil, now));
    const attempts = sql`case when ${lockExpired} then 1 else ${users.failedAttempts} + 1 end`;
    const [reserved] = await system((db) =>
      db
        .update(users)
        // The attempt that reaches the limit locks at once; a right password among them lifts the lock below.
        .set({
          failedAttempts: attempts,
          lockedUntil: sql`case when ${attempts} >= ${MAX_FAILED_ATTEMPTS} then ${lockEnd.toISOString()}::timestamptz end`,
        })
        .where(
          and(
            sql`lower(${users.email}) = ${email}`,
            eq(users.active, true),
            sql`${users.passwordHash} is not null`,
            or(isNull(users.lockedUntil), lte(users.lockedUntil, now)),
          ),
        )
        .returning({ id: users.id, passwordHash: users.passwordHash, failedAttempts: users.failedAttempts }),
    );
    if (reserved) {
      if (await verifyPassword(password, reserved.passwordHash!)) {
        await system((db) => db.update(users).set({ failedAttempts: 0, lockedUntil: null }).where(eq(users.id, reserved.id)));
        for (const [key, limit] of counters) await releaseRateLimit(db, key, limit, now);
        return { accountId: reserved.id };
      }
      if (reserved.failedAttempts >= MAX_FAILED_ATTEMPTS) log.warn({ userId: reserved.id }, 'cuenta bloqueada por intentos fallidos');
      return { error: INVALID, status: 401 };
    }
    // Not reserved: unknown, inactive or locked. Still one scrypt, against the real hash when there is one.
    const [locked] = await system((db) =>
      db
        .select({ passwordHash: users.passwordHash, lockedUntil: users.lockedUntil })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, eq(users.active, true), gt(users.lockedUntil, now))),
    );
    const rightPassword = await verifyPassword(password, locked?.passwordHash ?? (await decoyHash()));
    if (locked?.lockedUntil && locked.passwordHash && rightPassword) {
      const minutes = Math.ceil((locked.lockedUntil.getTime() - now.getTime()) / 60_000);
      return {
        error: `La cuenta está bloqueada por demasiados intentos fallidos. Intenta de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'} o restablece tu contraseña.`,
        status: 401,
      };
    }
    return { error: INVALID, status: 401 };
  }

  const html = (reply: FastifyReply, body: string, status = 200) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

  const callback = provider.callback();
  const toProvider = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    if (provider.proxy) {
      // Koa believes any X-Forwarded-* header; hand it only what Fastify's TRUST_PROXY rule accepted.
      raw.headers['x-forwarded-host'] = request.host;
      raw.headers['x-forwarded-proto'] = request.protocol;
    }
    raw.url = (raw.url ?? '/').slice(mountPath.length) || '/';
    if (!raw.url.startsWith('/')) raw.url = `/${raw.url}`;
    void callback(raw, reply.raw);
  };

  async function interactionPages(app: FastifyInstance) {
    // These pages are HTML forms: their bodies are form fields, every value a string. Any other body (JSON's numbers,
    // arrays and objects among them) is refused with 415 before a handler reads it.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    app.get<{ Params: { uid: string } }>('/interaction/:uid', async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.prompt.name !== 'login') {
        // Consent is implicit for the portal (see loadExistingGrant); finish whatever else is pending.
        reply.hijack();
        return provider.interactionFinished(request.raw, reply.raw, {}, { mergeWithLastSubmission: true });
      }
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      return html(
        reply,
        loginPage({ action: `${mountPath}/interaction/${details.uid}/login`, email: hint, forgotUrl: `${mountPath}/forgot-password` }),
      );
    });

    app.post<{ Params: { uid: string }; Body: Form }>('/interaction/:uid/login', async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      const email = request.body?.email ?? '';
      const password = request.body?.password ?? '';
      const outcome = await authenticate(email, password, request.ip);
      if ('error' in outcome) {
        if (outcome.retryAfterMinutes) reply.header('retry-after', String(outcome.retryAfterMinutes * 60));
        return html(
          reply,
          loginPage({
            action: `${mountPath}/interaction/${details.uid}/login`,
            email,
            error: outcome.error,
            forgotUrl: `${mountPath}/forgot-password`,
          }),
          outcome.status,
        );
      }
      reply.hijack();
      return provider.interactionFinished(
        request.raw,
        reply.raw,
        { login: { accountId: outcome.accountId } },
        { mergeWithLastSubmission: false },
      );
    });

    app.get(`/${LOGOUT_SCRIPT}`, async (_request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .type('text/javascript; charset=utf-8')
        .send("document.getElementById('op.logoutForm').submit();\n"),
    );

    app.get('/forgot-password', async (_request, reply) => html(reply, forgotPasswordPage({ action: `${mountPath}/forgot-password` })));

    app.post<{ Body: Form }>('/forgot-password', async (request, reply) => {
      const email = (request.body?.email ?? '').trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
        return html(
          reply,
          forgotPasswordPage({ action: `${mountPath}/forgot-password`, email, error: 'Escribe un correo electrónico válido.' }),
          400,
        );
      }
      const now = clock.now();
      const perAddress = await hitRateLimit(db, `forgot-password:address:${request.ip}`, limits.forgotPasswordPerAddress, now);
      if (!perAddress.allowed) {
        const { error, retryAfterMinutes } = tooMany(perAddress.retryAfterMinutes);
        reply.header('retry-after', String(retryAfterMinutes * 60));
        return html(reply, forgotPasswordPage({ action: `${mountPath}/forgot-password`, email, error }), 429);
      }
      // Counted per e-mail as typed, known or not; past the limit the answer stays the same and no mail goes out.
      const perAccount = await hitRateLimit(db, `forgot-password:account:${email}`, limits.resetMailsPerAccount, now);
      // The same answer whether or not the account exists: the page must not reveal who has one.
      if (perAccount.allowed) {
        await system(async (tx) => {
          const [user] = await tx
            .select({ id: users.id, email: users.email, companyId: users.companyId, active: users.active })
            .from(users)
            .where(sql`lower(${users.email}) = ${email}`);
          if (user?.active) await issuePasswordLink(tx, user, 'reset', { issuer, now, mail });
        });
      }
      return html(reply, forgotPasswordPage({ action: `${mountPath}/forgot-password`, sent: true }));
    });

    app.get<{ Querystring: { token?: string } }>('/reset-password', async (request, reply) => {
      const token = request.query.token ?? '';
      const state = await inspectPasswordLink(db, token, clock.now());
      if (!state.valid) {
        return html(
          reply,
          messagePage({
            title: 'Enlace no válido',
            kind: 'error',
            message: state.reason,
            link: { href: `${mountPath}/forgot-password`, label: 'Pedir un enlace nuevo' },
          }),
          410,
        );
      }
      return html(reply, resetPasswordPage({ action: `${mountPath}/reset-password`, token, email: state.email, purpose: state.purpose }));
    });

    app.post<{ Body: Form }>('/reset-password', async (request, reply) => {
      const token = request.body?.token ?? '';
      const state = await inspectPasswordLink(db, token, clock.now());
      const result = await redeemPasswordLink(
        db,
        { token, password: request.body?.password ?? '', confirmation: request.body?.confirmation ?? '' },
        clock.now(),
      );
      if (result.ok) {
        return html(
          reply,
          messagePage({
            title: 'Contraseña actualizada',
            kind: 'success',
            message: 'Tu contraseña se actualizó. Ya puedes iniciar sesión con ella.',
            link: { href: `${publicUrl}/session/signin`, label: 'Ir a iniciar sesión' },
          }),
        );
      }
      if (!result.linkUsable || !state.valid) {
        return html(reply, messagePage({ title: 'Enlace no válido', kind: 'error', message: result.error }), 410);
      }
      return html(
        reply,
        resetPasswordPage({
          action: `${mountPath}/reset-password`,
          token,
          email: state.email,
          purpose: state.purpose,
          error: result.error,
        }),
        400,
      );
    });
  }

  const plugin: FastifyPluginAsync = async (scope) => {
    // Every provider route is public by nature (it is how one gets a token); the API's deny-by-default list records it.
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: { public: true } };
    });
    await scope.register(interactionPages);
    await scope.register(async (passthrough) => {
      // oidc-provider (a Koa app) reads the body itself: Fastify must leave the stream untouched.
      passthrough.removeAllContentTypeParsers();
      passthrough.addContentTypeParser('*', (_request, _payload, done) => done(null));
      passthrough.all('/', toProvider);
      passthrough.all('/*', toProvider);
    });
  };

  return { plugin, keys: createLocalJWKSet({ keys: jwks.keys.map(publicPart) }), provider };
}
