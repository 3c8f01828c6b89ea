import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldError, Problem } from '@portal/contract';

/**
 * An error a service throws on purpose: it becomes Problem JSON (RFC 9457) with Spanish text a clerk can act on.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
  ) {
    super(detail ?? title);
  }
}

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'validation',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'unprocessable',
  429: 'too-many-requests',
  500: 'internal',
  503: 'unavailable',
};

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  detail?: string,
  errors?: FieldError[],
): FastifyReply {
  const body: Problem = {
    type: `urn:portal:problem:${TYPE_BY_STATUS[status] ?? 'error'}`,
    title,
    status,
    ...(detail ? { detail } : {}),
    instance: request.url,
    requestId: request.id,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
  return reply.code(status).type('application/problem+json').send(body);
}

/** `/body/email` → `email`; `/items/0/amount` → `items.0.amount`: the path a form field is named by. */
function fieldName(instancePath: string, fallback: string): string {
  const name = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return name === '' ? fallback : name;
}

function isPgError(error: unknown): error is { code: string; constraint?: string } {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** The PostgreSQL error code of a failed statement (Drizzle wraps the driver's error as `cause`), if any. */
export function pgErrorCode(error: unknown): string | undefined {
  if (isPgError(error)) return error.code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return isPgError(cause) ? cause.code : undefined;
}

/** Connection-level failures: the database is down, restarting or unreachable, not the request's fault. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client has encountered a connection error|PGlite is closed/i;

/**
 * Whether an error (or one of its causes) means the database cannot be reached: socket errors, PostgreSQL's class 08
 * (connection exception) and 57P01–57P03 (shutting down, cannot connect now), and the drivers' own messages for a
 * closed pool or a connection cut mid-query.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // node-postgres reports a refused localhost (IPv4 and IPv6) as an AggregateError.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpProblem) {
      return sendProblem(request, reply, error.status, error.title, error.detail, error.errors);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        field: fieldName(issue.instancePath, error.validationContext ?? 'body'),
        message: issue.message ?? 'Valor inválido',
      }));
      return sendProblem(request, reply, 400, 'Datos inválidos', 'Revisa los campos marcados.', errors);
    }
    const cause = (error as { cause?: unknown }).cause;
    const pgError = isPgError(error) ? error : isPgError(cause) ? cause : null;
    if (pgError?.code === '23505') {
      return sendProblem(request, reply, 409, 'Registro duplicado', 'Ya existe un registro con esos datos.');
    }
    if (pgError?.code === '42501') {
      // Row-level security refused a write into another company's data (db/scope.ts).
      return sendProblem(request, reply, 403, 'Acceso denegado', 'El registro pertenece a otra empresa.');
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type).
      const titles: Record<number, string> = {
        400: 'Solicitud inválida',
        413: 'El archivo o la solicitud es demasiado grande',
        415: 'Tipo de contenido no admitido',
      };
      return sendProblem(request, reply, status, titles[status] ?? 'Solicitud inválida', (error as Error).message);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      reply.header('retry-after', '30');
      return sendProblem(
        request,
        reply,
        503,
        'Servicio no disponible',
        `La base de datos no responde en este momento. Intenta de nuevo en unos minutos; si continúa, comunica este folio a soporte: ${request.id}`,
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      request,
      reply,
      500,
      'Error interno del servidor',
      `Ocurrió un error inesperado. Si continúa, comunica este folio a soporte: ${request.id}`,
    );
  });
}

/**
 * Reads a multipart body, turning the parser's own failures (a missing boundary, a cut-off part, a malformed header)
 * into a 400 that says so, instead of a 500. Refusals the reader throws on purpose pass through.
 */
export async function readMultipart<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500 && status !== 400) throw error;
    throw new HttpProblem(
      400,
      'Formulario mal formado',
      'El formulario (multipart/form-data) llegó incompleto o mal formado. Vuelve a enviarlo.',
    );
  }
}
