import { z } from 'zod';
import { moneyField } from '../money';
import { pageQuery, requiredString } from './fields';
import { CARD_PURPOSES, CARD_TYPES, SPENDING_CONTROLS } from './lists';
import type { apiCard, apiCardAllowance, apiCardDetail, apiCardTransaction, masterBalances } from './responses/cards';
import { dateRangeQuery } from './wallet';

/** media is Visa, general is Mastercard, anything else a tokenised card. */
export const brandOf = (purpose: string) =>
  purpose === 'media' ? 'Visa' : purpose === 'general' ? 'Mastercard' : 'Tokenised Cards';

export const MIN_CARD_LOAD_CENTS = 300;
export const UNVERIFIED_CARD_LIMIT = 5;

/** GET /cards/allowance: how many more cards the caller's wallet may have (unverified accounts have a lifetime limit). */
export type ApiCardAllowance = z.infer<typeof apiCardAllowance>;

const spendingControlField = z.enum(SPENDING_CONTROLS, {
  error: 'Spending Control must be day, week, month or lifetime',
});

export const createCardBody = z
  .object({
    first_name: requiredString('First Name is required', 50),
    last_name: requiredString('Last Name is required', 50),
    nickname: requiredString('Nickname is required', 50),
    type: z.enum(CARD_TYPES, { error: 'Card Type is required' }),
    purpose: z.enum(['media', 'general'], { error: 'Card Purpose is required' }),
    card_amount: moneyField('Amount is required'),
    spending_limit: moneyField('Spending Limit is required').optional(),
    spending_control: spendingControlField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.purpose === 'media' && v.spending_limit === undefined) {
      ctx.addIssue({ code: 'custom', path: ['spending_limit'], message: 'Spending Limit is required' });
    }
  });

export const cardAmountBody = z.object({
  card: z.string({ error: 'Card is required' }).uuid('Card is required'),
  amount: moneyField('Amount is required'),
});

export const spendingLimitBody = z.object({
  spending_limit: moneyField('Spending Limit is required'),
  spending_control: spendingControlField.default('lifetime'),
});

export const additionalLimitBody = z.object({
  card: z.string().uuid().optional(),
  spending_limit: moneyField('Amount is required'),
});

export const changeStatusBody = z.object({
  status: z.enum(['activate', 'deactivate'], { error: 'Status must be activate or deactivate' }),
});

export const changeStatusTokenBody = z.object({
  card_token: requiredString('Card token is required', 100),
  status: z.enum(['activate', 'deactivate'], { error: 'Status must be activate or deactivate' }),
  wallet_id: z.string().uuid().optional(),
});

export const reasonBody = z.object({ reason: requiredString('A reason is required', 500) });

const boolish = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const cardListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    for: z.enum(['company', 'individual']).optional(),
    purpose: z.enum(CARD_PURPOSES).optional(),
    type: z.enum(CARD_TYPES).optional(),
    is_active: boolish.optional(),
    search: z.string().trim().max(100).optional(),
    company_id: z.string().uuid().optional(),
    individual_id: z.string().uuid().optional(),
    deleted_only: boolish.optional(),
    flagged: boolish.optional(),
    flagged_only: boolish.optional(),
    created_by: z.string().uuid().optional(),
  }),
);

const countryField = z
  .string({ error: 'Country is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Country is a two-letter code such as GH');

/** The merchant's category code (ISO 18245): four digits, e.g. 5812 for restaurants. */
const mccField = z
  .string({ error: 'MCC is required' })
  .trim()
  .regex(/^\d{4}$/, 'MCC is four digits such as 5812');

/** Who charges the card, as the card network names them. */
const merchantFields = {
  amount: moneyField('Amount is required'),
  merchant: requiredString('Merchant is required', 100),
  mcc: mccField,
  country: countryField,
};

export const sandboxAuthorizationBody = z.object({
  card_id: z.string({ error: 'Card is required' }).uuid('Card is required'),
  ...merchantFields,
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'Currency is a three-letter code such as USD')
    .default('USD'),
  partial_allowed: z.boolean({ error: 'Partial allowed is true or false' }).default(false),
});

/** POST /sandbox/authorizations/{id}/increment: the merchant adds to its hold. */
export const sandboxIncrementBody = z.object({ amount: moneyField('Amount is required') });

/** POST /sandbox/authorizations/{id}/reverse: all that is held when no amount is given. */
export const sandboxReverseBody = z.object({ amount: moneyField('Amount is required').optional() }).default({});

/** POST /sandbox/authorizations/{id}/clear: the final amount; closes the authorisation unless told not to. */
export const sandboxClearBody = z.object({
  amount: moneyField('Amount is required'),
  close_authorization: z.boolean({ error: 'Close authorization is true or false' }).default(true),
});

/** POST /sandbox/refunds: a merchant pays money back, for an earlier payment or not. */
export const sandboxRefundBody = z.object({
  card_id: z.string({ error: 'Card is required' }).uuid('Card is required'),
  ...merchantFields,
  transaction_id: z.string().uuid('Transaction is a card transaction id').optional(),
});

/** POST /sandbox/force-posts: a clearing with no authorisation before it. */
export const sandboxForcePostBody = z.object({
  card_id: z.string({ error: 'Card is required' }).uuid('Card is required'),
  ...merchantFields,
});

export const HOLD_EXPIRY_DAYS = 7;

/** POST /sandbox/holds/expire: holds pending longer than this many days go back to their cards. */
export const sandboxExpireBody = z
  .object({
    older_than_days: z.coerce
      .number({ error: 'Days is a whole number from 0 to 365' })
      .int('Days is a whole number from 0 to 365')
      .min(0, 'Days is a whole number from 0 to 365')
      .max(365, 'Days is a whole number from 0 to 365')
      .default(HOLD_EXPIRY_DAYS),
  })
  .default({ older_than_days: HOLD_EXPIRY_DAYS });

export const cardTransactionsQuery = pageQuery
  .and(dateRangeQuery)
  .and(z.object({ card: z.string({ error: 'Please select a card' }).uuid('Please select a card') }));

export type ApiCard = z.infer<typeof apiCard>;

export type ApiCardDetail = z.infer<typeof apiCardDetail>;

export type ApiCardTransaction = z.infer<typeof apiCardTransaction>;
/** GET /wallet/master-balance: money on cards by purpose. */
export type MasterBalances = z.infer<typeof masterBalances>;
