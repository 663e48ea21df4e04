import { z } from 'zod';
import * as R from '@shared/contract/responses';

/**
 * The building blocks with which each /api/v1 route declares its answers in its own
 * `schema.response`, beside its handler: success bodies (the zod schemas of
 * shared/contract/responses/, whose z.infer are the client types) and the errors the route can
 * give. The OpenAPI document and the answer checks in test read them from the route (./attach.ts).
 *
 * Each route also names its operation (`operationId`, `summary`) in its schema. Code generators
 * turn operationIds into method names, so they are stable and unique: renaming one breaks
 * integrators' generated clients.
 */

/** A response whose body is not JSON (a file), described by media type. */
export interface ContentResponse {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}
type ResponseSchema = z.ZodType | ContentResponse;
export type RouteResponses = Record<number, ResponseSchema>;

// ---- Success answers -----------------------------------------------------------------------

/** A JSON answer as it is (lists, the token), with the text the document shows for it. */
export const json = <T extends z.ZodType>(schema: T, description: string): T => schema.describe(description);
/** `{ data }` around the schema. */
export const data = <T extends z.ZodType>(schema: T, description: string) => json(R.envelope(schema), description);
/** `{ data: "<a sentence>" }`. */
export const text = (description: string, example: string) =>
  json(R.envelope(z.string().describe(`e.g. "${example}"`)), description);
/** `{ data: { message } }`. */
export const message = (description: string) => json(R.envelope(R.messageOnly), description);

/** A stored document, sent as an attachment in the type it was uploaded as. */
export const file = (description: string): ContentResponse => {
  const schema = z.string().meta({ format: 'binary' });
  return { description, content: { 'application/pdf': { schema }, 'image/jpeg': { schema }, 'image/png': { schema } } };
};

/** A document the server makes (a statement), as an attachment. */
export const pdf = (description: string): ContentResponse => ({
  description,
  content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
});

export const redirect = (description: string) => R.noBody.describe(description);

// ---- Errors --------------------------------------------------------------------------------

/** A reason a route answers an error status; a route's reasons for one status are joined. */
export interface Why {
  status: number;
  why: string;
}
export const e = (status: number, why: string): Why => ({ status, why });

/** Portal endpoints: a session token only (API access tokens get 403). */
export const SIGNED_IN = [
  e(401, 'Not signed in, or the session has ended.'),
  e(403, 'An API access token was sent: this endpoint is for the portals only.'),
];
/** Endpoints that also take API access tokens (client credentials). */
export const SIGNED_IN_OR_API = [e(401, 'Not signed in, or the session or API access token has ended.')];
/** Customers' routes that staff may call too: a role without the operation's permission is refused. */
export const STAFF_RIGHT = e(403, "A staff member whose role lacks this operation's permission (GET /roles).");
/** Staff only, and only a role that holds the operation's permission (OPERATION_PERMISSIONS, GET /roles). */
export const STAFF = [...SIGNED_IN, e(403, "Staff only, whose role holds this operation's permission (GET /roles).")];
export const CUSTOMER_OR_API = [
  ...SIGNED_IN_OR_API,
  e(403, 'Customers only (Individual, Company-Admin, Company-User).'),
];
export const COMPANY_MEMBER = [...SIGNED_IN, e(403, 'Company users only.')];

/** A JSON body (or form) validated by its schema. */
export const BODY = [
  e(400, 'The body is not valid JSON.'),
  e(413, 'The body is too large.'),
  e(415, 'The content type is not supported.'),
  e(422, 'A field is invalid: `error` maps each field to its messages.'),
];
export const QUERY = [e(422, 'A query parameter is invalid: `error` maps each parameter to its messages.')];
export const PATH = [e(404, 'An id in the path is malformed (ids are UUIDs) or unknown.')];
/** Authenticated mutations honour the Idempotency-Key header. */
export const IDEMPOTENT = [
  e(400, 'The Idempotency-Key header is not 1 to 255 characters.'),
  e(409, 'A request with this Idempotency-Key is still being processed.'),
  e(422, 'This Idempotency-Key was already used for a different request.'),
];
export const RATE_LIMITED = e(
  429,
  'Too many failed attempts from this address or for this account: wait for the Retry-After seconds.',
);

/** The error answers of a route, each described by all its reasons, all in the one error shape. */
export function fails(...reasons: Array<Why | Why[]>): Record<number, typeof R.errorBody> {
  const by = new Map<number, string[]>();
  for (const r of reasons.flat()) {
    const list = by.get(r.status) ?? [];
    if (!list.includes(r.why)) list.push(r.why);
    by.set(r.status, list);
  }
  return Object.fromEntries(
    [...by].sort(([a], [b]) => a - b).map(([status, why]) => [status, R.errorBody.describe(why.join(' '))]),
  );
}
