import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { API_PREFIX, MISSING_EMAIL_CLAIM_TITLE, profileRoutes, userRoutes, type RouteAccess } from '@portal/contract';
import type { Db, Tx } from '../db/client';
import { profiles, users } from '../db/schema/users';
import { oidcModels } from '../db/schema/idp';
import { asSystem, withScope } from '../db/scope';
import { sendProblem } from './errors';
import { scopeOf } from './company-scope';

/** What a route needs: declared in the contract's route table (packages/contract/src/route-table.ts). */
export type { RouteAccess };

export interface Identity {
  subject: string;
  email: string;
  /** When the token was issued (`iat`, seconds): a token from before the user's `tokens_valid_after` is refused. */
  issuedAt?: number;
  /**
   * The embedded provider's grant the token was issued under: sign-out and a replayed code destroy it, and with it
   * every token of that sign-in (checked with the principal, in the database, so on every API process).
   */
  grantId?: string;
}

export interface Principal {
  userId: string;
  email: string;
  name: string | null;
  companyId: string;
  profileId: string;
  role: string;
  permissions: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * The route streams an answer that outlives its handler (an export): it gets no request transaction, since the
     * stream's reads would wait for it, and reads through request.inScope instead, a transaction per batch.
     */
    streamsAnswer?: true;
    /** The handler sends all its statements in one turn; its COMMIT goes with them (register.ts, RegisterOptions). */
    readsInOneTurn?: true | ((request: FastifyRequest) => boolean);
    /**
     * True for a request the handler answers from its principal alone, without the database (register.ts,
     * RegisterOptions): no transaction is opened and request.db stays null. Access is checked as for any request.
     */
    answersWithoutDatabase?: (request: FastifyRequest) => boolean;
  }
  interface FastifyRequest {
    identity: Identity | null;
    principal: Principal | null;
    /**
     * The database as this request's user may see it: one transaction, limited by row-level security to the user's
     * company (every company for role SA), around the whole handler. A protected route touches data only through it.
     */
    db: Tx;
    /**
     * A separate transaction in the same scope, for work that outlives the handler (a streamed export). Never awaited
     * inside the handler: on PGlite's single connection it would wait for the handler's own transaction.
     */
    inScope<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<Identity>;
}

export class InvalidTokenError extends Error {}

/** A token the provider signed that does not carry the e-mail the portal knows users by: told apart for the sign-in page. */
export class MissingEmailClaimError extends InvalidTokenError {
  constructor(readonly claim: string) {
    super(`el token no trae ${claim}`);
  }
}

/** Most answers a short memory keeps at once; past it the memory starts over (it is a shortcut, never the source). */
const SHORT_MEMORY_LIMIT = 10_000;

/** Answers kept by key, each until its own time: the verified tokens' and the principals' memory. */
function shortMemory<Value>() {
  const entries = new Map<string, { value: Value; until: number }>();
  return {
    /** The entry of `key` still kept at `now` (its value may be null: an answer too). */
    get(key: string, now: number): { value: Value } | undefined {
      const entry = entries.get(key);
      return entry && entry.until > now ? entry : undefined;
    },
    set(key: string, value: Value, until: number): void {
      if (entries.size >= SHORT_MEMORY_LIMIT) entries.clear();
      entries.set(key, { value, until });
    },
    clear(): void {
      entries.clear();
    },
  };
}

/**
 * Verifies a JWT access token against the provider's keys: signature, issuer, audience, expiry. With `reuseMs`, a token
 * verified in the last `reuseMs` (and not expired since) is not verified again: the same bytes, signature included, give
 * the same answer, and a portal's requests carry the same token for its whole life (the RS256 check was 6 % of the
 * server's time under the credit view's load). A key withdrawn from the provider stops its tokens here at most
 * `reuseMs` later; an expired token is refused at once.
 */
export function jwtTokenVerifier(options: {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  emailClaim?: string;
  /** RFC 9068 access tokens carry `typ: at+jwt`; the embedded provider always does, not every provider does. */
  requireAtJwt?: boolean;
  reuseMs?: number;
  /**
   * The claim naming the provider's grant (the embedded provider's `gid`): a token without it is refused, and one whose
   * grant is gone (signed out, code replayed) is refused by the principal's lookup.
   */
  grantClaim?: string;
}): TokenVerifier {
  const emailClaim = options.emailClaim ?? 'email';
  const reuseMs = options.reuseMs ?? 0;
  const verified = shortMemory<Identity>();
  async function verify(token: string): Promise<{ identity: Identity; expiresAt: number }> {
    try {
      const { payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        ...(options.requireAtJwt ? { typ: 'at+jwt' } : {}),
      });
      const email = payload[emailClaim];
      if (typeof payload.sub !== 'string') throw new InvalidTokenError('el token no trae sub');
      if (typeof email !== 'string' || email === '') throw new MissingEmailClaimError(emailClaim);
      // The e-mail is who the user is here: one the provider says it has not verified (a self-service account that
      // typed a staff member's address) signs no one in. A provider that does not say is trusted as configured.
      if (payload.email_verified === false) throw new InvalidTokenError('el proveedor no verificó el correo del token');
      const grantId = options.grantClaim ? payload[options.grantClaim] : undefined;
      if (options.grantClaim && (typeof grantId !== 'string' || grantId === ''))
        throw new InvalidTokenError('el token no trae su concesión');
      const identity: Identity = {
        subject: payload.sub,
        email,
        ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {}),
        ...(typeof grantId === 'string' ? { grantId } : {}),
      };
      return { identity, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : Infinity };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof joseErrors.JOSEError) throw new InvalidTokenError(error.code);
      throw error;
    }
  }
  return {
    async verify(token) {
      if (reuseMs <= 0) return (await verify(token)).identity;
      const now = Date.now();
      const known = verified.get(token, now);
      if (known) return known.value;
      const { identity, expiresAt } = await verify(token);
      verified.set(token, identity, Math.min(expiresAt, now + reuseMs));
      return identity;
    },
  };
}

/** What a token's lookup tells: who it is (null: no active user), and what decides whether the token still stands. */
export interface TokenHolder {
  principal: Principal | null;
  /** The user's tokens issued before this second are ended (users.tokens_valid_after). */
  validAfter: Date | null;
  /** The token's grant is still at the provider (true when the token names none). */
  grantStands: boolean;
}

/** False once the token's grant is gone (sign-out, a replayed code) or the user's tokens were ended after it was issued. */
export const tokenStands = (holder: TokenHolder, issuedAt: number | undefined): boolean =>
  holder.grantStands && issuedAfter(issuedAt, holder.validAfter);

/** The embedded provider's grant still stands (not revoked by sign-out or a replayed code, not expired). */
const grantStands = (grantId: string) =>
  sql<boolean>`exists (select 1 from ${oidcModels} where ${oidcModels.model} = 'Grant' and ${oidcModels.id} = ${grantId}
    and coalesce((${oidcModels.payload} ->> 'exp')::bigint > extract(epoch from clock_timestamp()), true))`;

/**
 * A token issued at `issuedAt` (whole seconds) stands unless the user's tokens were ended in a later second. The
 * second of the change itself is given the benefit (a sign-in right after a reactivation must work); the embedded
 * provider's tokens of that second end anyway, with their grant (endProviderSignIns).
 */
function issuedAfter(issuedAt: number | undefined, validAfter: Date | null): boolean {
  if (!validAfter) return true;
  return issuedAt !== undefined && issuedAt >= Math.floor(validAfter.getTime() / 1000);
}

/**
 * Who the token's e-mail is, looked up across companies (the company is what it tells), and in the same statement
 * whether the token still stands: its grant, and the user's `tokens_valid_after`.
 */
export async function loadTokenHolder(db: Db, identity: Pick<Identity, 'email' | 'grantId'>): Promise<TokenHolder> {
  const { email, grantId } = identity;
  const [row] = await asSystem(db, (tx) =>
    tx
      .select({
        userId: users.id,
        email: users.email,
        name: users.name,
        companyId: users.companyId,
        profileId: users.profileId,
        role: profiles.roleCode,
        permissions: profiles.permissions,
        tokensValidAfter: users.tokensValidAfter,
        grantStands: grantId === undefined ? sql<boolean>`true` : grantStands(grantId),
      })
      .from(users)
      .innerJoin(profiles, eq(profiles.id, users.profileId))
      .where(and(sql`lower(${users.email}) = lower(${email})`, eq(users.active, true)))
      .limit(1),
  );
  if (!row) {
    if (grantId === undefined) return { principal: null, validAfter: null, grantStands: true };
    const [grant] = await asSystem(db, (tx) => tx.select({ stands: grantStands(grantId) }).from(sql`(select 1) as one`));
    return { principal: null, validAfter: null, grantStands: grant?.stands === true };
  }
  const { tokensValidAfter, grantStands: stands, ...principal } = row;
  return {
    principal: { ...principal, permissions: new Set(principal.permissions) },
    validAfter: tokensValidAfter,
    grantStands: stands === true,
  };
}

/** Who an e-mail is, across companies (a job's or a test's principal: no token to check). */
export async function loadPrincipal(db: Db, email: string): Promise<Principal | null> {
  return (await loadTokenHolder(db, { email })).principal;
}

/**
 * The principal of each e-mail looked up in the last `ttlMs` (by `now`, the app's clock), so a burst of requests by one
 * user costs one lookup, not one transaction each. A user or profile write in this process empties it (see
 * installAuth); another process's write is seen here at most `ttlMs` later. With `ttlMs` 0 every request looks its
 * principal up.
 */
function principalLookup(db: Db, ttlMs: number, now: () => number) {
  const entries = shortMemory<TokenHolder>();
  return {
    async find(identity: Identity): Promise<TokenHolder> {
      if (ttlMs <= 0) return loadTokenHolder(db, identity);
      // By e-mail and grant, not by token: each token's `iat` is weighed against the remembered tokens_valid_after.
      const key = `${identity.email.toLowerCase()} ${identity.grantId ?? ''}`;
      const cached = entries.get(key, now());
      if (cached) return cached.value;
      const holder = await loadTokenHolder(db, identity);
      entries.set(key, holder, now() + ttlMs);
      return holder;
    },
    forgetAll() {
      entries.clear();
    },
  };
}

/** The writes that can change who someone is or what a profile grants: the users' and profiles' areas of the route table. */
const IDENTITY_WRITES = new Set(
  [...Object.values(userRoutes), ...Object.values(profileRoutes)]
    .filter((definition) => definition.method !== 'GET')
    .map((definition) => `${definition.method} ${API_PREFIX}${definition.path}`),
);

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

/**
 * Installs deny-by-default protection on every route of the server (API, provider, static files) and returns the live
 * list of routes it saw. Access comes from the route that matched (its declared `config.access`), never from the URL
 * string, so a percent-encoded, doubled-slash or absolute-form spelling of a path meets the same rule as the plain one.
 * Every protected handler runs inside one transaction scoped to the user's company (request.db).
 */
export function installAuth(
  app: FastifyInstance,
  deps: { db: Db; verifier: TokenVerifier; principalTtlMs?: number; now: () => number },
): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const principals = principalLookup(deps.db, deps.principalTtlMs ?? 0, deps.now);
  app.addHook('onResponse', async (request) => {
    if (IDENTITY_WRITES.has(`${request.method} ${request.routeOptions.url}`)) principals.forgetAll();
  });
  app.decorateRequest('identity', null);
  app.decorateRequest('principal', null);
  app.decorateRequest('db', null as unknown as Tx);
  app.decorateRequest('inScope', function inScope<T>(this: FastifyRequest, work: (tx: Tx) => Promise<T>) {
    return withScope(deps.db, scopeOf(this.principal), work);
  });

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      // Read lazily: a plugin's own onRoute hook (the docs, the provider, static files) sets the rule after this one.
      routes.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
      });
    }
    const handler = route.handler;
    route.handler = function scopedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const { access, streamsAnswer, readsInOneTurn, answersWithoutDatabase } = request.routeOptions.config;
      if (!access || 'public' in access || streamsAnswer) return handler.call(this, request, reply);
      // The onRequest hook below has checked the token, its session and the permission already: only the transaction,
      // an exchange with PostgreSQL holding no statement, is left out.
      if (answersWithoutDatabase?.(request)) return handler.call(this, request, reply);
      // The answer goes out only after the transaction commits: a handler returns it. Sending it from inside would
      // tell the client of a write that could still roll back (and the next request might not see it yet).
      reply.send = refuseEarlySend;
      // reply.send is Fastify's own again once the transaction has ended, however it ended: a transaction that could
      // not even open (the database gone under a principal still remembered) is answered by the error handler too.
      const sendAgain = () => delete (reply as Partial<FastifyReply>).send;
      return withScope(
        deps.db,
        scopeOf(request.principal),
        async (tx) => {
          request.db = tx;
          try {
            return await handler.call(this, request, reply);
          } finally {
            request.db = null as unknown as Tx;
          }
        },
        { commitInFirstTurn: typeof readsInOneTurn === 'function' ? readsInOneTurn(request) : readsInOneTurn === true },
      ).then(
        (answer) => {
          sendAgain();
          return answer;
        },
        (error: unknown) => {
          sendAgain();
          throw error;
        },
      );
    };
  });

  app.addHook('onRequest', async (request, reply) => {
    // No route matched: the not-found handler answers (and serves no data).
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (!access) {
      request.log.error({ url: request.routeOptions.url }, 'route declares no access rule');
      return sendProblem(request, reply, 403, 'Acceso denegado', 'Esta ruta no declara qué permiso requiere.');
    }
    if ('public' in access) return;

    const identity = await authenticate(request, deps.verifier);
    if (identity instanceof MissingEmailClaimError) {
      return sendProblem(
        request,
        reply,
        401,
        MISSING_EMAIL_CLAIM_TITLE,
        `El token del proveedor de identidad no trae el correo electrónico del usuario (${identity.claim}), con el que el portal reconoce a cada persona. Quien administra el proveedor debe incluirlo en el token de acceso.`,
      );
    }
    if (!identity) {
      return sendProblem(request, reply, 401, 'Sesión no válida', 'Tu sesión no es válida o expiró. Inicia sesión de nuevo.');
    }
    const holder = await principals.find(identity);
    if (!tokenStands(holder, identity.issuedAt)) {
      request.log.info({ grantId: identity.grantId }, 'access token of an ended session');
      return sendProblem(request, reply, 401, 'Sesión terminada', 'Tu sesión se cerró o tu usuario cambió. Inicia sesión de nuevo.');
    }
    request.identity = identity;
    request.principal = holder.principal;
    if (request.principal) {
      // From here on every line of this request (its "request completed" too) says whose it is.
      request.log = request.log.child({ userId: request.principal.userId });
      reply.log = request.log;
    }
    if ('signedIn' in access) return;

    if (!request.principal) {
      return sendProblem(request, reply, 403, 'Acceso denegado', 'Tu usuario no está registrado o está inactivo en el portal.');
    }
    const required = 'permission' in access ? [access.permission] : access.anyPermission;
    if (!required.some((path) => request.principal!.permissions.has(path))) {
      return sendProblem(
        request,
        reply,
        403,
        'Acceso denegado',
        `Tu perfil no tiene el permiso ${required.join(' o ')} que requiere esta operación.`,
      );
    }
  });

  return routes;
}

function refuseEarlySend(): never {
  throw new Error('A protected handler returns its answer; reply.send() inside the request transaction would answer before it commits.');
}

async function authenticate(request: FastifyRequest, verifier: TokenVerifier): Promise<Identity | MissingEmailClaimError | null> {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) return null;
  try {
    return await verifier.verify(match[1]);
  } catch (error) {
    if (error instanceof InvalidTokenError) {
      request.log.info({ reason: error.message }, 'access token refused');
      return error instanceof MissingEmailClaimError ? error : null;
    }
    throw error;
  }
}
