import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KYB_FILES, KYC_FILES, kybFields, kycFields } from '@shared/contract/verification';
import { disputeBody } from '@shared/contract/disputes';

/**
 * Request documentation the route schemas cannot carry: multipart forms are read by the handler
 * (a body schema would validate them, which they must not be), and the token endpoint also takes
 * a form. These shapes are for the document only; nothing validates requests against them.
 */

const binary = (description: string) => z.string().meta({ format: 'binary', description });

const filesOf = (spec: Record<string, string | null>) =>
  Object.fromEntries(
    Object.entries(spec).map(([field, required]) => [
      field,
      required
        ? binary(`${required}. JPEG, PNG or PDF, at most 5 MB`)
        : binary('JPEG, PNG or PDF, at most 5 MB').optional(),
    ]),
  );

const kycForm = z
  .object({ ...kycFields.shape, ...filesOf(KYC_FILES) })
  .describe('The KYC form: identification, and the documents as files.');
const kybForm = z
  .object({
    ...kybFields.shape,
    operation_countries: z.string().optional().describe('Comma-separated country names or codes'),
    publicly_listed: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
    ...filesOf(KYB_FILES),
  })
  .describe('The KYB form: the company’s details, and the documents as files.');

const statementForm = z
  .object({
    source: z.enum(['issuer', 'chain', 'momo']).describe('Whose statement it is: its mapping reads the file'),
    file: binary('The statement as CSV (UTF-8), at most 5 MB'),
    start_date: z.string().optional().describe('The period’s first UTC day (YYYY-MM-DD); both or neither'),
    end_date: z.string().optional().describe('The period’s last UTC day; without them, the days the lines cover'),
    rules: z
      .string()
      .optional()
      .describe('JSON `{ tolerance, window_hours, reference, one_to_many }` for this upload instead of the source’s'),
  })
  .describe('A statement to match against the ledger.');
const disputeForm = z
  .object({
    reason: disputeBody.shape.reason,
    amount: z.string().describe('The amount disputed, e.g. "25.00"'),
    explanation: disputeBody.shape.explanation,
    evidence: z
      .array(binary('JPEG, PNG or PDF, at most 5 MB'))
      .max(5)
      .optional()
      .describe('Receipts, photos, messages: up to 5 files in the field `evidence`'),
  })
  .describe('The dispute as JSON, or as a multipart form with its evidence files.');

const DOC_ONLY: Record<string, { body?: z.ZodType; consumes?: string[]; optionalAuth?: true }> = {
  'POST /api/v1/individuals/kyc/:userId': { body: kycForm },
  'POST /api/v1/company/kyb/:companyId': { body: kybForm },
  'POST /api/v1/statements': { body: statementForm },
  'POST /api/v1/card-transactions/:id/disputes': { body: disputeForm },
  'POST /api/v1/oauth/token': { consumes: ['application/json', 'application/x-www-form-urlencoded'] },
  // signed in or not; a signed-in caller's Idempotency-Key is honoured
  'POST /api/v1/account/helpdesk': { optionalAuth: true },
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The header the idempotency plugin reads on authenticated mutations (server/plugins/idempotency.ts). */
const idempotencyKey = {
  type: 'object',
  properties: {
    'Idempotency-Key': {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Any unique string (a UUID is a good choice). A retry with the same key and request replays the first answer (with `Idempotent-Replayed: true`) for 24 hours; the same key with a different request is a 422, and a 409 while the first is still being processed.',
    },
  },
};

type Transformed = { schema: Record<string, unknown>; url: string };

/**
 * The type provider's transform, with the document-only request shapes above added, and each
 * authenticated mutation's Idempotency-Key header. (Each route names its operationId and summary
 * in its own schema.)
 */
export const transform: SwaggerTransform = (input) => {
  const method = String([input.route.method].flat()[0]);
  const key = `${method} ${input.url}`;
  const extra = DOC_ONLY[key];
  const schema =
    input.schema && extra
      ? {
          ...input.schema,
          ...(extra.body && !input.schema.body ? { body: extra.body } : {}),
          ...(extra.consumes ? { consumes: extra.consumes } : {}),
        }
      : input.schema;
  const out = jsonSchemaTransform({ ...input, schema }) as Transformed;
  if (!out.schema || out.schema.hide) return out;
  const authenticated =
    Boolean((input.schema?.security as unknown[] | undefined)?.length) || Boolean(extra?.optionalAuth);
  return {
    ...out,
    schema: {
      ...out.schema,
      ...(MUTATING.has(method) && authenticated && !out.schema.headers ? { headers: idempotencyKey } : {}),
    },
  };
};
