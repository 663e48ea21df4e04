import { z } from 'zod';
import { id, timestamp } from './blocks';

export const apiFee = z
  .strictObject({
    id,
    name: z.string(),
    type: z.enum(['percentage', 'fixed']),
    value: z
      .string()
      .regex(/^\d+\.\d{2}$/)
      .describe('A percentage (e.g. "3.50") or a fixed amount in USD, two decimals'),
    state: z.enum(['Active', 'Inactive']),
    for: z.enum(['default', 'company']),
    for_id: id.nullable(),
    for_name: z.string().nullable(),
    inherited: z
      .boolean()
      .optional()
      .describe("On a company's schedule: true when the row is the default the company inherits"),
    updated_at: timestamp,
  })
  .meta({ id: 'ApiFee' });
