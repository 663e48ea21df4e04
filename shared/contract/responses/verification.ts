import { z } from 'zod';
import { freeForm, id, timestamp } from './blocks';

export const apiDocument = z
  .strictObject({
    id,
    field: z.string().describe('The form field it was uploaded as'),
    name: z.string(),
    content_type: z.enum(['image/jpeg', 'image/png', 'application/pdf']),
    size: z.number().int().describe('Bytes'),
    url: z.string().describe('GET it (signed in) to download the file'),
  })
  .meta({ id: 'ApiDocument' });

const verificationRowShape = {
  id,
  account_id: id,
  account_type: z.enum(['individual', 'company']),
  state: z.enum(['pending', 'approved', 'rejected']),
  name: z.string(),
  email: z.string(),
  individual: z.strictObject({ first_name: z.string(), last_name: z.string(), email: z.string() }).nullable(),
  company: z.strictObject({ company_name: z.string(), company_email: z.string() }).nullable(),
  reason: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
};

export const apiVerificationRow = z
  .strictObject(verificationRowShape)
  .meta({ id: 'ApiVerificationRow', description: 'A KYC or KYB submission.' });

export const apiVerificationDetail = z
  .strictObject({
    ...verificationRowShape,
    verification_state: z.string().describe("The account's verification state now"),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    company_name: z.string().optional(),
    verifications: freeForm('The submitted fields, with links to the documents'),
    documents: z.array(apiDocument),
    decided_by: z.string().nullable(),
    decided_at: timestamp.nullable(),
    history: z.array(z.strictObject({ id, state: z.string(), reason: z.string().nullable(), created_at: timestamp })),
  })
  .meta({ id: 'ApiVerificationDetail', description: 'A submission with everything a reviewer needs.' });

export const verificationDecision = z.strictObject({ message: z.string(), state: z.enum(['approved', 'rejected']) });
