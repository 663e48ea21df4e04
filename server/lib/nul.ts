import type { FastifySchemaCompiler } from 'fastify';
import { type AppError, type FieldErrors, invalid, notFound } from './http';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, so a NUL that reaches a query fails there (a 500).
 * Every validated input is checked for it here instead: a string (or an object key) with a NUL is
 * refused on its own field with a 422, before any handler runs.
 */

const NUL = '\u0000';

const label = (path: string[]) => path.join('.') || '_';

/** The fields of `value` (nested paths joined with dots) whose text or keys contain a NUL, with their messages. */
export function nulFields(value: unknown, path: string[] = [], out: FieldErrors = {}): FieldErrors {
  if (typeof value === 'string') {
    if (value.includes(NUL)) out[label(path)] = [`${label(path)} must not contain a NUL character (\\u0000)`];
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) nulFields(v, [...path, String(i)], out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL))
        out[label(path)] = [`${label(path)} must not have a name containing a NUL character (\\u0000)`];
      else nulFields(v, [...path, k], out);
    }
  }
  return out;
}

/** A 422 naming each field with a NUL, or null when there is none. */
function nulError(value: unknown): AppError | null {
  const fields = nulFields(value);
  return Object.keys(fields).length ? invalid(fields) : null;
}

/**
 * Wraps the validator compiler: what a route's schema accepted (query, body, headers) is then checked
 * for NULs. Path parameters are ids or references, so one with a NUL names nothing: a 404.
 */
export function refusingNul<S>(compile: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  return (route) => {
    const validate = compile(route);
    return (data) => {
      const result = validate(data);
      if (typeof result !== 'object' || result === null || ('error' in result && result.error)) return result;
      const refused = nulError('value' in result ? result.value : data);
      if (!refused) return result;
      return { error: route.httpPart === 'params' ? notFound() : refused };
    };
  };
}
