import { z } from 'zod';
import { moneyField } from '../money';
import { pageQuery, uuidParam } from './fields';
import type { apiStatement, apiStatementLine, apiStatementSource } from './responses/statements';
import { dayField } from './wallet';

/** Who sends us statements (issue 36): the card issuer's settlement report, a TronGrid export, the mobile-money operator. */
export const STATEMENT_SOURCES = ['issuer', 'chain', 'momo'] as const;
export type StatementSource = (typeof STATEMENT_SOURCES)[number];
export const STATEMENT_SOURCE_NAMES: Record<StatementSource, string> = {
  issuer: 'Card issuer settlement report',
  chain: 'TronGrid export (USDT TRC-20)',
  momo: 'Mobile-money operator statement',
};

export const DATE_FORMATS = ['iso', 'unix_ms', 'unix_s', 'dd/mm/yyyy', 'mm/dd/yyyy'] as const;
/**
 * How a line's amount carries its direction: signed (positive is money into the platform), inverted (positive
 * is money to the other party, as an issuer's report shows a card load), absolute (no direction: amounts are
 * compared as they are), or a direction column whose `in_values` mean money in.
 */
export const AMOUNT_SIGNS = ['signed', 'inverted', 'absolute', 'direction'] as const;
const STATEMENT_LINE_STATUSES = ['matched', 'missing_ours', 'missing_theirs'] as const;
export type StatementLineStatus = (typeof STATEMENT_LINE_STATUSES)[number];

const column = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);
const optionalColumn = (label: string) =>
  z
    .string()
    .trim()
    .max(100, `${label} must be at most 100 characters`)
    .nullish()
    .transform((v) => v || null);

/** A source's columns, kept per source and used for every file it sends. */
const statementMapping = z
  .object({
    delimiter: z.enum([',', ';', '\t'], { error: 'Delimiter must be a comma, a semicolon or a tab' }).default(','),
    date_column: column('Date column'),
    date_format: z.enum(DATE_FORMATS, { error: `Date format must be one of ${DATE_FORMATS.join(', ')}` }),
    amount_column: column('Amount column'),
    amount_scale: z.coerce
      .number({ error: 'Implied decimals must be a whole number from 0 to 18' })
      .int('Implied decimals must be a whole number from 0 to 18')
      .min(0, 'Implied decimals must be a whole number from 0 to 18')
      .max(18, 'Implied decimals must be a whole number from 0 to 18')
      .nullish()
      .transform((v) => v ?? null),
    decimal_separator: z.enum(['.', ','], { error: 'Decimal separator must be a point or a comma' }).default('.'),
    sign: z.enum(AMOUNT_SIGNS, { error: `Sign must be one of ${AMOUNT_SIGNS.join(', ')}` }),
    direction_column: optionalColumn('Direction column'),
    in_values: z.array(z.string().trim().min(1).max(40)).max(10, 'At most 10 values').default([]),
    reference_column: optionalColumn('Reference column'),
  })
  .superRefine((v, ctx) => {
    if (v.sign === 'direction' && !v.direction_column)
      ctx.addIssue({ code: 'custom', path: ['direction_column'], message: 'Name the direction column' });
    if (v.sign === 'direction' && !v.in_values.length)
      ctx.addIssue({ code: 'custom', path: ['in_values'], message: 'Give the values that mean money in' });
    if (v.amount_scale === null && v.decimal_separator === ',' && v.delimiter === ',')
      ctx.addIssue({ code: 'custom', path: ['delimiter'], message: 'A decimal comma needs another delimiter' });
  });
export type StatementMapping = z.output<typeof statementMapping>;

/** How lines are matched against the ledger. */
const statementRules = z.object({
  tolerance: moneyField('Tolerance is required', { allowZero: true }),
  window_hours: z.coerce
    .number({ error: 'Time window must be a whole number of hours from 0 to 720' })
    .int('Time window must be a whole number of hours from 0 to 720')
    .min(0, 'Time window must be a whole number of hours from 0 to 720')
    .max(720, 'Time window must be a whole number of hours from 0 to 720'),
  reference: z.enum(['contains', 'off'], { error: 'Reference must be contains or off' }),
  one_to_many: z.boolean({ error: 'One-to-many must be true or false' }),
});
export type StatementRules = z.output<typeof statementRules>;

export const statementSourceParams = z.object({
  source: z.enum(STATEMENT_SOURCES, { error: `The source must be one of ${STATEMENT_SOURCES.join(', ')}` }),
});

/** PUT /statement-sources/{source}: the mapping and the rules, both whole. */
export const statementSourceBody = z.object({ mapping: statementMapping, rules: statementRules });

/** POST /statements: the multipart form's text fields (the file is `file`); rules override the source's for this upload. */
export const statementUploadFields = z
  .object({
    source: statementSourceParams.shape.source,
    start_date: dayField('Start date'),
    end_date: dayField('End date'),
    rules: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (!v) return undefined;
        try {
          return JSON.parse(v) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'Rules must be JSON' });
          return z.NEVER;
        }
      })
      .pipe(statementRules.optional()),
  })
  .superRefine((v, ctx) => {
    if (!v.start_date !== !v.end_date)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'Give both dates of the period, or neither' });
    else if (v.start_date && v.end_date && v.end_date < v.start_date)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'End date must be on or after the start date' });
  });

export const statementsQuery = pageQuery.omit({ format: true }).and(
  z.object({
    source: statementSourceParams.shape.source.optional(),
  }),
);

export const statementLinesQuery = pageQuery.omit({ format: true }).and(
  z.object({
    status: z
      .enum(STATEMENT_LINE_STATUSES, { error: `status must be one of ${STATEMENT_LINE_STATUSES.join(', ')}` })
      .optional(),
    open: z
      .enum(['true', 'false'], { error: 'open must be true or false' })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
  }),
);

export const statementLineParams = z.object({ id: uuidParam, lineId: uuidParam });

export const resolveStatementLineBody = z.object({
  note: z
    .string({ error: 'Note is required' })
    .trim()
    .min(1, 'Note is required')
    .max(1000, 'Note must be at most 1000 characters'),
});

export type ApiStatementSource = z.infer<typeof apiStatementSource>;
export type ApiStatement = z.infer<typeof apiStatement>;
export type ApiStatementLine = z.infer<typeof apiStatementLine>;
