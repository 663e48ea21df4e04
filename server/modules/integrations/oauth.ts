import type { FastifyReply, FastifyRequest } from 'fastify';
import { tokenBody } from '@shared/contract';
import { AppError, HTTP } from '../../lib/http';
import { nulFields } from '../../lib/nul';

/** RFC 6749 §5.2 errors: `error` is the RFC's code, `message` says it to a person. */
const invalidRequest = (message: string) => new AppError(HTTP.BAD_REQUEST, message, 'invalid_request');

// Every 401 names a scheme to answer with (RFC 9110 §15.5.2); HTTP Basic is the one this endpoint takes.
export const invalidClient = (message = 'Client authentication failed.') =>
  new AppError(HTTP.UNAUTHORIZED, message, 'invalid_client', {
    'www-authenticate': 'Basic realm="cardwallet", charset="UTF-8"',
  });

/** RFC 6749 §5.1: nothing on the way may keep a token endpoint's answer, a token or an error. */
export async function noStore(_req: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** A form body, refusing a parameter given twice (RFC 6749 §3.2) instead of keeping either copy. */
export function parseTokenForm(body: string): Record<string, string> {
  const params = new URLSearchParams(body);
  const out: Record<string, string> = {};
  for (const [k, v] of params) {
    if (Object.hasOwn(out, k)) throw invalidRequest(`The parameter ${k} is given more than once.`);
    out[k] = v;
  }
  return out;
}

export interface ClientCredentials {
  id: string;
  secret: string;
}

/**
 * The client's credentials from HTTP Basic (client_secret_basic) or the body (client_secret_post).
 * Both at once is refused (RFC 6749 §2.3), though the body may name the same client_id (§3.2.1).
 */
export function clientCredentials(
  authorization: string | undefined,
  body: { client_id?: string; client_secret?: string },
): ClientCredentials {
  const basic = /^Basic(?:\s+(\S*))?\s*$/i.exec(authorization ?? '');
  if (!basic) {
    if (!body.client_id || !body.client_secret) {
      throw invalidClient('Client authentication is required: HTTP Basic, or client_id and client_secret in the body.');
    }
    return usable({ id: body.client_id, secret: body.client_secret });
  }
  if (body.client_secret !== undefined) {
    throw invalidRequest('Authenticate the client one way only: HTTP Basic or client_secret in the body, not both.');
  }
  const creds = decodeBasic(basic[1] ?? '');
  if (!creds) throw invalidClient();
  if (body.client_id !== undefined && body.client_id !== creds.id) {
    throw invalidRequest('The client_id in the body is not the client of the HTTP Basic credentials.');
  }
  return usable(creds);
}

/**
 * No client id has white space (ours are `cw_` and base64url), and the failure limits key on the id
 * ending at a space (rate-limit.ts pairKey): such an id names no client and is refused before counting.
 */
function usable(creds: ClientCredentials): ClientCredentials {
  if (/\s/.test(creds.id)) throw invalidClient();
  return creds;
}

// Basic carries what the body's fields would: the same bounds, and no NUL (which no query can hold).
const basicFields = tokenBody.pick({ client_id: true, client_secret: true });

function decodeBasic(token: string): ClientCredentials | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return null;
  const text = Buffer.from(token, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 §2.3.1: each part is form-urlencoded before it goes into Basic.
  const part = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    const id = part(text.slice(0, colon));
    const secret = part(text.slice(colon + 1));
    const fields = { client_id: id, client_secret: secret };
    if (!id || !secret || !basicFields.safeParse(fields).success || Object.keys(nulFields(fields)).length) return null;
    return { id, secret };
  } catch {
    return null; // a broken %-escape
  }
}
