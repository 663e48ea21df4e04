import { z } from 'zod';
import { id, money, timestamp } from './blocks';

const source = z.enum(['issuer', 'chain', 'momo']);

export const apiStatementSource = z
  .strictObject({
    source,
    name: z.string(),
    mapping: z
      .strictObject({
        delimiter: z.enum([',', ';', '\t']),
        date_column: z.string(),
        date_format: z.enum(['iso', 'unix_ms', 'unix_s', 'dd/mm/yyyy', 'mm/dd/yyyy']),
        amount_column: z.string(),
        amount_scale: z
          .number()
          .int()
          .nullable()
          .describe('Implied decimals of a whole-number amount (6 for raw USDT); null when the amount is a decimal'),
        decimal_separator: z.enum(['.', ',']),
        sign: z.enum(['signed', 'inverted', 'absolute', 'direction']),
        direction_column: z.string().nullable(),
        in_values: z.array(z.string()).describe('Values of the direction column that mean money into the platform'),
        reference_column: z.string().nullable(),
      })
      .meta({ id: 'ApiStatementMapping' }),
    rules: z
      .strictObject({
        tolerance: money.describe('How far apart a line and a ledger movement may be and still match'),
        window_hours: z.number().int().describe('How far apart in time, in hours'),
        reference: z.enum(['contains', 'off']).describe("contains: the line's reference must contain ours"),
        one_to_many: z.boolean().describe('One line against several ledger movements summing to it, or the reverse'),
      })
      .meta({ id: 'ApiStatementRules' }),
    updated_at: timestamp.nullable().describe('null while the built-in defaults are in force'),
  })
  .meta({ id: 'ApiStatementSource' });

export const apiStatement = z
  .strictObject({
    id,
    source,
    file_name: z.string(),
    content_hash: z.string().describe('SHA-256 of the file; the same file again answers this statement'),
    start_date: z.string().describe('The period, UTC days, both inclusive'),
    end_date: z.string(),
    lines: z.number().int().describe("The file's lines"),
    rules: apiStatementSource.shape.rules,
    counts: z
      .strictObject({
        matched: z.number().int(),
        missing_ours: z.number().int().describe('On their statement, not in our ledger'),
        missing_theirs: z.number().int().describe('In our ledger for the period, not on their statement'),
        open: z.number().int().describe('Unmatched items not yet resolved'),
      })
      .meta({ id: 'ApiStatementCounts' }),
    uploaded_by: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiStatement' });

export const apiStatementMovement = z
  .strictObject({
    transfer_id: id,
    reference: z.string(),
    kind: z.string(),
    amount: money.describe('Signed: positive is money into the platform'),
    at: timestamp,
  })
  .meta({ id: 'ApiStatementMovement' });

export const apiStatementLine = z
  .strictObject({
    id,
    status: z.enum(['matched', 'missing_ours', 'missing_theirs']),
    line: z
      .number()
      .int()
      .nullable()
      .describe("The line's number in the file (the header is line 1); null for a ledger movement"),
    at: timestamp,
    amount: money.describe("The line's amount, or the ledger movement's"),
    reference: z.string().nullable(),
    ledger: z.array(apiStatementMovement).describe('The ledger movements it matched, or the one missing on theirs'),
    reason: z.string().nullable().describe('Why it did not match, when a movement came close'),
    resolved: z
      .strictObject({ note: z.string(), by: z.string().nullable(), at: timestamp })
      .nullable()
      .describe('A staff note that settles an unmatched item'),
  })
  .meta({ id: 'ApiStatementLine' });

export const apiStatementUpload = apiStatement
  .extend({
    existing: z.boolean().describe('The same file was uploaded before: this is that statement, unchanged'),
  })
  .meta({ id: 'ApiStatementUpload' });
