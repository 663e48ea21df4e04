import type { FastifyBaseLogger, FastifySerializerCompiler } from 'fastify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';
import type { Config } from '../config';

/**
 * How answers are checked against their documented schemas:
 * - enforce (test): an answer that does not match fails (500), so every integration test also
 *   checks the documentation;
 * - warn (kept for tools that want it): a mismatch is logged, the answer goes out as it is;
 * - off (development and production): documentation only; a drift must never turn a good
 *   answer into a 500, and checking every answer cost `npm start` a fifth of each request.
 * In every mode the body sent is `JSON.stringify` of what the handler returned, unchanged: the
 * schemas never strip, reorder or convert anything.
 */
export type ResponseCheck = 'enforce' | 'warn' | 'off';

export const responseCheckFor = (env: Config['env']): ResponseCheck => (env === 'test' ? 'enforce' : 'off');

const isZodSchema = (s: unknown): s is $ZodType | { properties: $ZodType } =>
  s instanceof $ZodType ||
  (typeof s === 'object' && s !== null && (s as { properties?: unknown }).properties instanceof $ZodType);

/** The type provider's validating serializer: zod-encodes the answer and throws ResponseSerializationError on a mismatch. */
const validating = createSerializerCompiler();

const stringify = (data: unknown) => JSON.stringify(data);

/** The zod issues of a mismatch, one per line, for people reading a failed test. */
function describeMismatch(err: unknown): string {
  const issues =
    (err as { cause?: { issues?: Array<{ path: PropertyKey[]; message: string; code?: string; keys?: string[] }> } })
      .cause?.issues ?? [];
  if (!issues.length) return String((err as Error)?.message ?? err);
  return issues
    .slice(0, 20)
    .map(
      (i) => `  at ${i.path.map(String).join('.') || '(root)'}: ${i.message}${i.keys ? ` (${i.keys.join(', ')})` : ''}`,
    )
    .join('\n');
}

export function responseSerializerCompiler(
  mode: ResponseCheck,
  log: FastifyBaseLogger,
): FastifySerializerCompiler<unknown> {
  return (route) => {
    if (mode === 'off' || !isZodSchema(route.schema)) return stringify;
    const check = validating(route as Parameters<typeof validating>[0]);
    const where = `${route.method} ${route.url} ${route.httpStatus}`;
    return (data) => {
      try {
        check(data);
      } catch (err) {
        const details = describeMismatch(err);
        if (mode === 'enforce') {
          // The app's log is captured by the tests; say it where the person running them looks.
          console.error(
            `The answer of ${where} does not match its documented schema (the route's schema.response):\n${details}`,
          );
          throw err;
        }
        log.warn(
          { route: where, details },
          "an answer does not match its documented schema (the route's schema.response)",
        );
      }
      return stringify(data);
    };
  };
}
