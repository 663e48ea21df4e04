import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KYB_FILES, KYC_FILES, kybFields, kycFields } from '../../shared/contract/verification';

/**
 * Request documentation the route schemas cannot carry: multipart forms are read by the handler
 * (a body schema would validate them, which they must not be), and the token endpoint also takes
 * a form. These shapes are for the document only; nothing validates requests against them.
 */

const binary = (description: string) => z.string().meta({ format: 'binary', description });

const filesOf = (spec: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(spec).map(([field, required]) => [field, required ? binary(`${required}. JPEG, PNG or PDF, at most 5 MB`) : binary('JPEG, PNG or PDF, at most 5 MB').optional()]));

const kycForm = z.object({ ...kycFields.shape, ...filesOf(KYC_FILES) }).describe('The KYC form: identification, and the documents as files.');
const kybForm = z
  .object({
    ...kybFields.shape,
    operation_countries: z.string().optional().describe('Comma-separated country names or codes'),
    publicly_listed: z.enum(['true', 'false', '1', '0', 'yes', 'no']).optional(),
    ...filesOf(KYB_FILES),
  })
  .describe('The KYB form: the company’s details, and the documents as files.');

const DOC_ONLY: Record<string, { body?: z.ZodType; consumes?: string[] }> = {
  'POST /api/v1/individuals/kyc/:userId': { body: kycForm },
  'POST /api/v1/company/kyb/:companyId': { body: kybForm },
  'POST /api/v1/oauth/token': { consumes: ['application/json', 'application/x-www-form-urlencoded'] },
};

/** The type provider's transform, with the document-only request shapes above added. */
export const transform: SwaggerTransform = (input) => {
  const method = [input.route.method].flat()[0];
  const extra = DOC_ONLY[`${method} ${input.url}`];
  if (!extra || !input.schema) return jsonSchemaTransform(input);
  return jsonSchemaTransform({ ...input, schema: { ...input.schema, ...(extra.body && !input.schema.body ? { body: extra.body } : {}), ...(extra.consumes ? { consumes: extra.consumes } : {}) } });
};
