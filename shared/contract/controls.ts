import { z } from 'zod';
import { getCountries } from 'libphonenumber-js/max';
import { MERCHANT_CATEGORY_NAMES } from '../merchant-categories';
import { moneyField } from '../money';
import { APPROVAL_INTERVALS } from './approval-intervals';
import type { cardControls, merchantCategory, programControls } from './responses/controls';

export { APPROVAL_INTERVALS, type ApprovalInterval } from './approval-intervals';
export type ApiMerchantCategory = z.infer<typeof merchantCategory>;
export type ApiCardControls = z.infer<typeof cardControls>;
export type ApiProgramControls = z.infer<typeof programControls>;

const KNOWN_CATEGORIES = new Set(MERCHANT_CATEGORY_NAMES);
// ISO 3166-1 alpha-2: the regions libphonenumber knows (with XK, Kosovo, as card networks use it) and the
// seven assigned codes that have no telephone numbering of their own.
const KNOWN_COUNTRIES = new Set<string>([...getCountries(), 'AQ', 'BV', 'GS', 'HM', 'PN', 'TF', 'UM']);

/** Every country code a control takes, A to Z (the screens name them with `countryName`). */
export const COUNTRY_CODES = [...KNOWN_COUNTRIES].sort();

const MAX_LIST = 300;

const categoryList = z
  .array(z.string({ error: 'A category is a name such as gambling' }).trim(), {
    error: 'Give a list of category names',
  })
  .max(MAX_LIST, `At most ${MAX_LIST} categories`)
  .default([])
  .superRefine((list, ctx) => {
    const unknown = list.filter((n) => !KNOWN_CATEGORIES.has(n));
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `Unknown category: ${unknown.join(', ')}` });
  })
  .transform((list) => [...new Set(list)]);

const countryList = z
  .array(z.string({ error: 'A country is a two-letter code such as GH' }).trim().toUpperCase(), {
    error: 'Give a list of two-letter country codes',
  })
  .max(MAX_LIST, `At most ${MAX_LIST} countries`)
  .default([])
  .superRefine((list, ctx) => {
    const unknown = list.filter((c) => !KNOWN_COUNTRIES.has(c));
    if (unknown.length)
      ctx.addIssue({
        code: 'custom',
        message: `Unknown country (a two-letter code such as GH): ${unknown.join(', ')}`,
      });
  })
  .transform((list) => [...new Set(list)].sort());

export const MAX_APPROVALS_COUNT = 10_000;

const maxApprovals = z
  .object(
    {
      count: z
        .number({ error: `Count must be a whole number from 1 to ${MAX_APPROVALS_COUNT}` })
        .int(`Count must be a whole number from 1 to ${MAX_APPROVALS_COUNT}`)
        .min(1, `Count must be a whole number from 1 to ${MAX_APPROVALS_COUNT}`)
        .max(MAX_APPROVALS_COUNT, `Count must be a whole number from 1 to ${MAX_APPROVALS_COUNT}`),
      interval: z.enum(APPROVAL_INTERVALS, { error: 'Interval must be daily, weekly, monthly, yearly or all_time' }),
    },
    { error: 'Max approvals is { count, interval } or null' },
  )
  .nullable()
  .default(null);

const BOTH = 'Set allowed or blocked, not both';

/**
 * PUT /cards/{id}/controls: the whole set, replacing what was there (a field left out is empty).
 * An allow list lets only its entries through; a block list stops its entries; one kind takes one of the two.
 */
export const cardControlsBody = z
  .object({
    allowed_categories: categoryList,
    blocked_categories: categoryList,
    allowed_countries: countryList,
    blocked_countries: countryList,
    per_transaction_limit: z
      .union([z.null(), moneyField('Per-transaction limit is an amount or null')])
      .default(null)
      .meta({ description: 'The most one payment may take, in USD; null for no limit.' }),
    max_approvals: maxApprovals,
  })
  .superRefine((b, ctx) => {
    if (b.allowed_categories.length && b.blocked_categories.length)
      ctx.addIssue({ code: 'custom', path: ['blocked_categories'], message: BOTH });
    if (b.allowed_countries.length && b.blocked_countries.length)
      ctx.addIssue({ code: 'custom', path: ['blocked_countries'], message: BOTH });
  });
export type CardControlsBody = z.output<typeof cardControlsBody>;

/** PUT /program/controls (Super-Admin): what no card may pay, whatever its own controls say. */
export const programControlsBody = z.object({
  blocked_categories: categoryList,
  blocked_countries: countryList,
  /** left out: unchanged (a client that predates the setting does not turn it off) */
  provisional_credit: z.boolean({ error: 'provisional_credit must be true or false' }).optional(),
});
export type ProgramControlsBody = z.output<typeof programControlsBody>;
