import type { FastifyInstance } from 'fastify';
import type { FieldError } from '@portal/contract';
import { HttpProblem } from './errors';

/**
 * Text PostgreSQL cannot store, or would store as something else: a NUL character (refused by the database, which
 * answered 500) and a lone UTF-16 surrogate (silently replaced by U+FFFD). Refused up front, for every route, with the
 * field named, instead of in each schema.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * How deeply a body may nest. The portal's deepest body is a few levels; a hostile one of thousands of nested arrays
 * (6 KB of JSON) would otherwise exhaust the stack of this walk (a 500) before any schema saw it.
 */
const MAX_DEPTH = 32;

export function unsafeTextFields(value: unknown, path: string[] = []): FieldError[] {
  if (path.length > MAX_DEPTH)
    return [
      { field: path.slice(0, 3).join('.'), message: `Los datos anidan más de ${MAX_DEPTH} niveles; envía una estructura más sencilla.` },
    ];
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      return [{ field: path.join('.') || 'body', message: 'Contiene un carácter nulo (NUL) que no se puede guardar; quítalo.' }];
    if (LONE_SURROGATE.test(value))
      return [{ field: path.join('.') || 'body', message: 'Contiene un carácter Unicode incompleto; vuelve a escribir el texto.' }];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => unsafeTextFields(item, [...path, String(index)]));
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.entries(value).flatMap(([key, item]) => [
      ...unsafeTextFields(key, [...path, key]),
      ...unsafeTextFields(item, [...path, key]),
    ]);
  }
  return [];
}

export function assertSafeText(value: unknown, path: string[] = []): void {
  const errors = unsafeTextFields(value, path);
  if (errors.length > 0) throw new HttpProblem(400, 'Datos inválidos', 'Revisa los campos marcados.', errors);
}

/** An uploaded file's name as kept: at most 200 characters, cut between characters (never inside a surrogate pair). */
export const keptFileName = (name: string, fallback: string): string => Array.from(name).slice(0, 200).join('') || fallback;

/**
 * A multipart file's name: it comes in the part's headers, which the body hook below never sees, so it is refused here
 * like any text field the database cannot store (a NUL answered 500), then kept as keptFileName.
 */
export function uploadedFileName(name: string, fallback: string, field = 'fileName'): string {
  assertSafeText(name, [field]);
  return keptFileName(name, fallback);
}

/** Checks the path parameters, the query string and a parsed body of every request before validation. */
export function installInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    assertSafeText(request.params, ['params']);
    assertSafeText(request.query, ['query']);
    assertSafeText(request.body);
  });
}
