import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * How JSON answers are written. By default through the route's zod schema (fastify-type-provider-zod: the answer is
 * checked and stripped to the schema, then JSON.stringify). A route registered with `compiledAnswer` (register.ts) has
 * its answer's schema compiled once into a writer (fast-json-stringify, from the schema's JSON Schema): it writes only
 * the schema's properties in the schema's order, as the zod path does, without checking each value's type at each
 * answer — in the credit view's profile the zod pass was the largest part of the API's own work on its answer
 * (decision 0042).
 *
 * With `checkEveryAnswer` (every test app, test-app.ts) a compiled schema's answer is also written the zod way: a value
 * zod refuses is the same error as without the compiled writer, and a difference of a single byte between the two
 * writings is an error, so the tests that read a route prove its compiled answer is the zod one.
 */

type Schema = z.ZodType;

/** The answers' schemas that are compiled: those of the routes registered with `compiledAnswer`. */
const compiled = new WeakSet<object>();

const isZodSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && '_zod' in value;

/** Compile `schema`'s answers (a route's response schema); refused at start for a schema JSON Schema cannot state. */
export function compileAnswersOf(schema: unknown): void {
  if (!isZodSchema(schema)) throw new Error('compiledAnswer: la respuesta no es un esquema zod');
  writerOf(schema);
  compiled.add(schema);
}

/** fast-json-stringify's writer for `schema`, from its JSON Schema as the answer leaves (zod's `output`). */
function writerOf(schema: Schema): (data: unknown) => string {
  const jsonSchema = forWriting(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' }));
  return fastJsonStringify(jsonSchema as Parameters<typeof fastJsonStringify>[0]) as (data: unknown) => string;
}

/**
 * The JSON Schema as the writer needs it to write what zod writes: an object's fields beyond its properties are left
 * out, as zod strips them (`additionalProperties: false` would make a nullable object's `anyOf` refuse the value), and
 * "X or null" is X `nullable` (the writer tests an `anyOf` against each branch at every answer).
 */
function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting);
  if (typeof node !== 'object' || node === null) return node;
  const { additionalProperties, anyOf, ...rest } = node as Record<string, unknown>;
  const kept: Record<string, unknown> = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, forWriting(value)]));
  if (additionalProperties !== undefined && additionalProperties !== false) kept.additionalProperties = forWriting(additionalProperties);
  if (Array.isArray(anyOf)) {
    const isNull = (branch: unknown) => typeof branch === 'object' && branch !== null && (branch as { type?: unknown }).type === 'null';
    const others = anyOf.filter((branch) => !isNull(branch));
    if (others.length === 1 && anyOf.length === 2 && Object.keys(kept).length === 0) {
      return { ...(forWriting(others[0]) as Record<string, unknown>), nullable: true };
    }
    kept.anyOf = forWriting(anyOf);
  }
  return kept;
}

export class AnswerMismatchError extends Error {
  constructor(method: string, url: string, compiledAnswer: string, zodAnswer: string) {
    super(`${method} ${url}: el escritor compilado difiere del de zod\n  compilado: ${compiledAnswer}\n  zod:       ${zodAnswer}`);
  }
}

export function answerSerializerCompiler(options: { checkEveryAnswer: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    const viaZod = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]) as (data: unknown) => string;
    const { schema } = route;
    if (!isZodSchema(schema) || !compiled.has(schema)) return viaZod;
    const write = writerOf(schema);
    if (!options.checkEveryAnswer) return write;
    return (data: unknown) => {
      const zodAnswer = viaZod(data);
      const answer = write(data);
      if (answer !== zodAnswer) throw new AnswerMismatchError(route.method, route.url, answer, zodAnswer);
      return answer;
    };
  };
}
