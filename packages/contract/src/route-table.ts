import type { z } from 'zod';
import type { PermissionPath } from './navigation';

/**
 * The route table's building blocks. Each endpoint is declared once, in `routes/<area>.ts`, with `route({...})`:
 * method, path (Fastify style, relative to /api), params, query, body, answers and the access it requires. The API
 * registers its handlers from these declarations (validation and types follow) and the web builds its calls from
 * them (`buildUrl`, `RouteInput`, `RouteOutput`), so neither restates a URL or casts an answer.
 */

/** Any zod schema, classic or mini (the session's schemas are mini: they run on the sign-in page). */
export type Schema = z.core.$ZodType;

/**
 * What a route needs. Every route under /api declares one; the API's access hook reads it from the matched route and
 * refuses a route that declares none, so forgetting a declaration closes a door instead of opening it.
 */
export type RouteAccess =
  | { public: true }
  /** Any holder of a valid access token, registered or not (the sign-in lookup). */
  | { signedIn: true }
  /** A registered, active user whose profile holds this permission path. */
  | { permission: PermissionPath }
  /** A registered, active user holding any of these (e.g. the user form's catalogues, for new and edit alike). */
  | { anyPermission: readonly PermissionPath[] };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A multipart/form-data body: its parts are read and checked by the handler (files cannot be a JSON schema). */
export interface MultipartBody {
  kind: 'multipart';
  /** The parts it takes, for the documentation and the caller. */
  parts: string;
}

/** A file answer (a spreadsheet export, a stored document) rather than JSON. */
export interface FileAnswer {
  kind: 'file';
  contentType: string;
}

/** An answer without a body (204). */
export interface NoContent {
  kind: 'no-content';
}

/** JSON answers by status code; the one of 200/201/202 is the success the caller receives. */
export type JsonAnswers = { readonly [status: number]: Schema };

export interface RouteDefinition {
  method: HttpMethod;
  /** Fastify style (`/users/:id`), relative to API_PREFIX. */
  path: string;
  summary: string;
  tags: readonly string[];
  access: RouteAccess;
  params?: Schema;
  query?: Schema;
  body?: Schema | MultipartBody;
  response: JsonAnswers | FileAnswer | NoContent;
}

/** Declares one endpoint; the literal type is kept, so its schemas type the handler and the client. */
export function route<const R extends RouteDefinition>(definition: R): R {
  return definition;
}

export const multipart = (parts: string): MultipartBody => ({ kind: 'multipart', parts });
export const fileAnswer = (contentType: string): FileAnswer => ({ kind: 'file', contentType });
export const noContent: NoContent = { kind: 'no-content' };
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const API_PREFIX = '/api';

type SuccessOf<A> = A[Extract<keyof A, 200 | 201 | 202>];

/** What a route's successful call answers: the parsed JSON, a Blob for a file, nothing for 204. */
export type RouteOutput<R extends RouteDefinition> = R['response'] extends FileAnswer
  ? Blob
  : R['response'] extends NoContent
    ? void
    : SuccessOf<R['response']> extends infer S extends Schema
      ? z.output<S>
      : never;

/** What a call to the route takes: its path parameters, query and body, each only when the route declares one. */
export type RouteInput<R extends RouteDefinition> = (R extends { params: infer P extends Schema }
  ? { params: z.input<P> }
  : { params?: never }) &
  (R extends { query: infer Q extends Schema } ? { query?: z.input<Q> } : { query?: never }) &
  (R extends { body: MultipartBody }
    ? { body: FormData }
    : R extends { body: infer B extends Schema }
      ? { body: z.input<B> }
      : { body?: never });

/** The path parameters a route takes (nothing when it has none). */
export type RouteParams<R extends RouteDefinition> = R extends { params: infer P extends Schema } ? z.input<P> : Record<string, never>;

/** The route's path under API_PREFIX with its parameters filled in and encoded: `/api/users/3f1c…`. */
export function buildPath<R extends RouteDefinition>(definition: R, params?: RouteParams<R>): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const filled = definition.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${definition.method} ${definition.path}: falta el parámetro ${name}`);
    return encodeURIComponent(String(value));
  });
  return `${API_PREFIX}${filled}`;
}

/** The full request target: the filled path plus the query's given values (empty ones left out). */
export function buildUrl<R extends RouteDefinition>(definition: R, input: { params?: RouteParams<R>; query?: object } = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return `${buildPath(definition, input.params)}${query ? `?${query}` : ''}`;
}

/** The path parameter names a Fastify-style path declares (`/requests/:id/documents/:kind` → id, kind). */
export const pathParamNames = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
