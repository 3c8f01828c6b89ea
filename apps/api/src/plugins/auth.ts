import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { PermissionPath } from '@portal/contract';
import type { Db } from '../db/client';
import { profiles, users } from '../db/schema';
import { sendProblem } from './errors';

/**
 * What a route needs. Every route under /api declares one (a test lists them all); a route that declares
 * nothing is refused, so forgetting a declaration closes a door instead of opening it.
 */
export type RouteAccess =
  | { public: true }
  /** Any holder of a valid access token, registered or not (the sign-in lookup). */
  | { signedIn: true }
  /** A registered, active user whose profile holds this permission path. */
  | { permission: PermissionPath }
  /** A registered, active user holding any of these (e.g. the user form's catalogues, for new and edit alike). */
  | { anyPermission: readonly PermissionPath[] };

export interface Identity {
  subject: string;
  email: string;
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
  }
  interface FastifyRequest {
    identity: Identity | null;
    principal: Principal | null;
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<Identity>;
}

export class InvalidTokenError extends Error {}

/** Verifies a JWT access token against the provider's keys: signature, issuer, audience, expiry. */
export function jwtTokenVerifier(options: {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  emailClaim?: string;
  /** RFC 9068 access tokens carry `typ: at+jwt`; the embedded provider always does, not every provider does. */
  requireAtJwt?: boolean;
}): TokenVerifier {
  const emailClaim = options.emailClaim ?? 'email';
  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, options.keys, {
          issuer: options.issuer,
          audience: options.audience,
          ...(options.requireAtJwt ? { typ: 'at+jwt' } : {}),
        });
        const email = payload[emailClaim];
        if (typeof email !== 'string' || email === '' || typeof payload.sub !== 'string') {
          throw new InvalidTokenError(`el token no trae ${emailClaim}`);
        }
        return { subject: payload.sub, email };
      } catch (error) {
        if (error instanceof InvalidTokenError) throw error;
        if (error instanceof joseErrors.JOSEError) throw new InvalidTokenError(error.code);
        throw error;
      }
    },
  };
}

export async function loadPrincipal(db: Db, email: string): Promise<Principal | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      companyId: users.companyId,
      profileId: users.profileId,
      role: profiles.roleCode,
      permissions: profiles.permissions,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.id, users.profileId))
    .where(and(sql`lower(${users.email}) = lower(${email})`, eq(users.active, true)))
    .limit(1);
  if (!row) return null;
  return { ...row, permissions: new Set(row.permissions) };
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

/** Installs deny-by-default protection on every /api route and returns the live list of routes it saw. */
export function installAuth(app: FastifyInstance, deps: { db: Db; verifier: TokenVerifier }): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.decorateRequest('identity', null);
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      // Read lazily: a plugin's own onRoute hook (the docs) may set the rule after this hook has run.
      routes.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
      });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api') || request.is404) return;
    const access = request.routeOptions.config.access;
    if (!access) {
      request.log.error({ url: request.routeOptions.url }, 'route declares no access rule');
      return sendProblem(request, reply, 403, 'Acceso denegado', 'Esta ruta no declara qué permiso requiere.');
    }
    if ('public' in access) return;

    const identity = await authenticate(request, deps.verifier);
    if (!identity) {
      return sendProblem(
        request,
        reply,
        401,
        'Sesión no válida',
        'Tu sesión no es válida o expiró. Inicia sesión de nuevo.',
      );
    }
    request.identity = identity;
    request.principal = await loadPrincipal(deps.db, identity.email);
    if ('signedIn' in access) return;

    if (!request.principal) {
      return sendProblem(
        request,
        reply,
        403,
        'Acceso denegado',
        'Tu usuario no está registrado o está inactivo en el portal.',
      );
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

async function authenticate(request: FastifyRequest, verifier: TokenVerifier): Promise<Identity | null> {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) return null;
  try {
    return await verifier.verify(match[1]);
  } catch (error) {
    if (error instanceof InvalidTokenError) {
      request.log.info({ reason: error.message }, 'access token refused');
      return null;
    }
    throw error;
  }
}
