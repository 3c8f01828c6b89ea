import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { z } from 'zod';
import type { JsonAnswers, RouteDefinition, Schema } from '@portal/contract';
import { compileAnswersOf } from './answer-serializer';

/**
 * Registers a handler for a route of the contract's route table (packages/contract/src/routes/<area>.ts): method, URL,
 * the params/querystring/body/response schemas and `config.access` all come from the one declaration, so validation,
 * the OpenAPI page, the access hook (auth.ts) and the handler's types follow it. A module never spells a URL.
 */

type Parsed<S> = S extends Schema ? z.output<S> : unknown;

/** The request as the handler sees it: params, query and body already validated and parsed by the route's schemas. */
export type RouteRequest<R extends RouteDefinition> = FastifyRequest<{
  Params: R extends { params: infer P } ? Parsed<P> : unknown;
  Querystring: R extends { query: infer Q } ? Parsed<Q> : unknown;
  Body: R extends { body: infer B } ? Parsed<B> : unknown;
}>;

/** What the handler returns: a body one of the route's answer schemas serializes (anything for a file or a 204). */
export type RouteAnswer<R extends RouteDefinition> = R['response'] extends JsonAnswers
  ? { [Status in keyof R['response']]: R['response'][Status] extends Schema ? z.input<R['response'][Status]> : never }[keyof R['response']]
  : unknown;

export type RouteHandler<R extends RouteDefinition> = (request: RouteRequest<R>, reply: FastifyReply) => Promise<RouteAnswer<R>>;

export interface RegisterOptions {
  /**
   * The handler streams an answer that outlives it (an export): no request transaction, since the stream's reads
   * would wait for it; it reads through request.inScope instead (auth.ts).
   */
  streamsAnswer?: true;
  /**
   * The handler sends every statement it makes before waiting for any answer: one read, or a list's page and its
   * count. Its transaction's COMMIT then goes with them (db/client.ts): one exchange with PostgreSQL for the whole
   * request. A statement sent later is refused with an error, never run outside the transaction. A function answers
   * it per request: false for a request whose second statement needs the first one's answer (a company's search by
   * name, decision 0034).
   */
  readsInOneTurn?: true | ((request: FastifyRequest) => boolean);
  /**
   * Per request: true when the handler answers from the request's principal alone (who am I, its sign-in already
   * recorded this minute). No transaction is opened for it, so the request costs no exchange with PostgreSQL;
   * request.db is null, and the handler must not reach for it then.
   */
  answersWithoutDatabase?: (request: FastifyRequest) => boolean;
  /**
   * The answer's schema is compiled into its writer (answer-serializer.ts, decision 0042): no zod pass per answer in
   * production, the same bytes, checked against the zod writing on every answer of the tests.
   */
  compiledAnswer?: true;
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && '_zod' in value;

export function register<const R extends RouteDefinition>(
  app: FastifyInstance,
  definition: R,
  handler: RouteHandler<R>,
  options: RegisterOptions = {},
): void {
  const { params, query, body, response } = definition;
  if (options.compiledAnswer && !('kind' in response)) for (const schema of Object.values(response)) compileAnswersOf(schema);
  app.route({
    method: definition.method,
    url: definition.path,
    schema: {
      tags: [...definition.tags],
      summary: definition.summary,
      ...(params ? { params } : {}),
      ...(query ? { querystring: query } : {}),
      // A multipart body is read and checked by its handler; a file or empty answer has no JSON schema.
      ...(isSchema(body) ? { body } : {}),
      ...('kind' in response ? {} : { response }),
    },
    config: {
      access: definition.access,
      ...(options.streamsAnswer ? { streamsAnswer: true } : {}),
      ...(options.readsInOneTurn ? { readsInOneTurn: options.readsInOneTurn } : {}),
      ...(options.answersWithoutDatabase ? { answersWithoutDatabase: options.answersWithoutDatabase } : {}),
    },
    handler: handler as unknown as RouteHandlerMethod,
  });
}
