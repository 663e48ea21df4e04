/** Status codes by name, so handlers read as the API contract does. */
export const HTTP = {
  OK: 200,
  CREATED: 201,
  ACCEPTED: 202,
  NO_CONTENT: 204,
  FOUND: 302,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type FieldErrors = Record<string, string[]>;

/** The one error shape: { message, error } with `error` a string or a per-field map. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly error?: string | FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(HTTP.BAD_REQUEST, message, message);
/**
 * RFC 7235: a 401 says how to authenticate. The API takes bearer tokens (RFC 6750); a token it
 * does not accept is `Bearer error="invalid_token"`.
 */
export const unauthorized = (message = 'You are not signed in. Please log in again.', challenge = 'Bearer') =>
  new AppError(HTTP.UNAUTHORIZED, message, message, { 'www-authenticate': challenge });
export const forbidden = (message = 'You are not allowed to do this.') =>
  new AppError(HTTP.FORBIDDEN, message, message);
export const notFound = (what = 'The requested item') => {
  const message = `${what} was not found.`;
  return new AppError(HTTP.NOT_FOUND, message, message);
};
export const conflict = (message: string) => new AppError(HTTP.CONFLICT, message, message);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new AppError(HTTP.TOO_MANY_REQUESTS, message, message, { 'retry-after': String(retryAfterSeconds) });

/** A 422 on one or more fields; the message is the first field's first message. */
export function invalid(fields: FieldErrors): AppError {
  const first = Object.values(fields)[0]?.[0] ?? 'The given data was invalid.';
  return new AppError(HTTP.UNPROCESSABLE, first, fields);
}
export const invalidField = (field: string, message: string) => invalid({ [field]: [message] });

/** Success envelope */
export const ok = <T>(data: T) => ({ data });

/** Parses with a zod schema outside Fastify's validation (multipart fields): 422 per field on failure. */
export function parseOr422<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
  },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fields: FieldErrors = {};
  for (const i of r.error.issues) (fields[i.path.map(String).join('.') || '_'] ??= []).push(i.message);
  throw invalid(fields);
}
