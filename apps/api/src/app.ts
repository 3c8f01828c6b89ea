import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSerializerCompiler } from './http/answer-serializer';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet, { type HelmetOptions } from 'helmet';
import { z } from 'zod';
import type { AuthConfig } from '@portal/contract';
import type { AppDeps } from './deps';
import { installAuth, type RegisteredRoute } from './http/auth';
import { installErrorHandling, sendProblem } from './http/errors';
import { installInputHygiene } from './http/input-hygiene';
import { installMetrics } from './http/metrics';
import { coreRoutes } from './modules/core/core.routes';
import { healthRoutes, APP_VERSION } from './modules/health/health.routes';
import { sessionRoutes } from './modules/session/session.routes';
import { outboxRoutes } from './modules/outbox/outbox.routes';
import { usersRoutes } from './modules/users/users.routes';
import { profilesRoutes } from './modules/users/profiles.routes';
import { agreementsRoutes } from './modules/agreements/agreements.routes';
import { preRequestsRoutes } from './modules/origination/pre-requests.routes';
import { requestsRoutes } from './modules/origination/requests.routes';
import { creditsRoutes } from './modules/credits/credits.routes';
import { businessDatesRoutes } from './modules/business-date/business-date.routes';
import { paymentFilesRoutes } from './modules/payment-files/payment-files.routes';
import { labelsRoutes } from './modules/labels/labels.routes';
import { homeSummaryRoutes } from './modules/home/home.routes';
import { lettersRoutes } from './modules/letters/letters.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { deductionOrdersRoutes } from './modules/deduction-orders/deduction-orders.routes';
import { treasuryRoutes } from './modules/treasury/treasury.routes';
import { employerStatementRoutesPlugin } from './modules/employer-statement/employer-statement.routes';

z.config(z.locales.es());

/**
 * Helmet's headers with a Content-Security-Policy the SPA, the provider's pages and Swagger UI all pass: scripts
 * only from this origin (no inline script anywhere), inline styles allowed because MUI/emotion injects them, no
 * framing by other sites. An external provider's origin is added where the browser talks to it (discovery and
 * token requests, the silent-renew frame).
 */
function securityHeaders(authConfig: AuthConfig): HelmetOptions {
  const provider = authConfig.embedded ? [] : [new URL(authConfig.issuer).origin];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...provider],
        // blob: only for the PDFs the portal itself fetched with the user's token and shows in a frame (a settlement
        // letter's preview, a request's document): a blob: URL can only be made by script of this origin.
        frameSrc: ["'self'", 'blob:', ...provider],
        frameAncestors: ["'self'"],
        formAction: ["'self'", ...provider],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'no-referrer' },
    // The sign-in popup must keep its opener (the portal) even when it visits an external provider.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  };
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export type App = FastifyInstance & { registeredRoutes: RegisteredRoute[] };

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // A hop count becomes Fastify's function form (its types accept no number): trust the nearest N proxies.
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : (deps.trustProxy ?? false),
    bodyLimit: 1024 * 1024,
    // One spelling per route: "//api//users/" reaches /api/users and meets its access rule (http/auth.ts).
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    rewriteUrl: (request) => originFormPath(request.url ?? '/'),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler({ checkEveryAnswer: deps.checkEveryAnswer === true }));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Helmet's middleware is built once; @fastify/helmet built it again at every request (2.6 % of the API's samples
  // under the users list's load, parsing the CSP's directives each time).
  const setSecurityHeaders = helmet(securityHeaders(deps.authConfig));
  app.addHook('onRequest', (request, reply, done) =>
    setSecurityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  // gzip/brotli for the SPA's assets and JSON answers: the browser downloads what the budget measures.
  await app.register(fastifyCompress, { threshold: 1024 });
  installErrorHandling(app);
  installInputHygiene(app);
  const registeredRoutes = installAuth(app, {
    db: deps.db,
    verifier: deps.verifier,
    principalTtlMs: deps.principalTtlMs ?? 0,
    now: () => deps.clock.now().getTime(),
  });
  const metrics = deps.metricsToken ? installMetrics(app, { token: deps.metricsToken }) : null;

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Portal de crédito de nómina — API', version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  await app.register(
    async (api) => {
      // The documentation is public; its routes come from a plugin, so they are declared public here.
      await api.register(async (docs) => {
        docs.addHook('onRoute', (route) => {
          route.config = { ...route.config, access: { public: true } };
        });
        // indexPrefix: the page's asset links must include /api, also when it is opened without a trailing slash.
        await docs.register(fastifySwaggerUi, { routePrefix: '/docs', indexPrefix: '/api' });
      });
      await api.register(healthRoutes(deps, metrics));
      await api.register(sessionRoutes(deps));
      await api.register(coreRoutes(deps));
      await api.register(outboxRoutes);
      await api.register(usersRoutes(deps));
      await api.register(profilesRoutes(deps));
      await api.register(agreementsRoutes(deps));
      await api.register(preRequestsRoutes(deps));
      await api.register(requestsRoutes(deps));
      await api.register(creditsRoutes(deps));
      await api.register(businessDatesRoutes(deps));
      await api.register(paymentFilesRoutes(deps));
      await api.register(labelsRoutes(deps));
      await api.register(homeSummaryRoutes(deps));
      await api.register(lettersRoutes(deps));
      await api.register(reportsRoutes(deps));
      await api.register(deductionOrdersRoutes(deps));
      await api.register(treasuryRoutes(deps));
      await api.register(employerStatementRoutesPlugin(deps));
    },
    { prefix: '/api' },
  );

  if (deps.idp) await app.register(deps.idp, { prefix: '/oidc' });

  const webDist = deps.webDist && existsSync(path.join(deps.webDist, 'index.html')) ? deps.webDist : undefined;
  if (webDist) {
    await app.register(async (assets) => {
      // The built SPA's files are public (the sign-in page needs them); declared so, like every other route.
      assets.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: { public: true } };
      });
      await assets.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        // Source maps stay on the server (vite's 'hidden' maps), for whoever reads a stack trace, not for the public.
        allowedPath: (pathName) => !pathName.endsWith('.map'),
        setHeaders: (res, filePath) => {
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    });
    // The not-found handler serves index.html for the SPA's own routes: only the reply decorator, no routes.
    await app.register(fastifyStatic, { root: webDist, serve: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const wanted = decodedPath(request.url);
    const isApi = /^\/(api|oidc)(\/|$)/i.test(wanted);
    if (!isApi && webDist && request.method === 'GET' && !wanted.endsWith('.map')) {
      // Client-side routes (/home, /user/user-list, unknown paths too: the SPA shows its 404 page).
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendProblem(request, reply, 404, 'Recurso no encontrado', `No existe ${request.method} ${request.url}.`);
  });

  return Object.assign(app, { registeredRoutes }) as unknown as App;
}

/**
 * The request target as a path: an absolute-form target ("GET http://host/api/users", which a proxy may send) becomes
 * its path, so it is routed, and guarded, like the path itself. Anything else that is not a path is left to 404.
 */
function originFormPath(url: string): string {
  if (url.startsWith('/')) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** The path part, percent-decoded where it can be, for deciding what kind of 404 to answer. */
function decodedPath(url: string): string {
  const path = (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
