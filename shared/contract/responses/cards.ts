import { z } from 'zod';
import { CARD_PURPOSES, CARD_TYPES, DECIDED_BY, DECLINE_CODES, SPENDING_CONTROLS } from '../lists';
import { id, money, timestamp } from './blocks';

export const apiCard = z
  .strictObject({
    id,
    wallet_id: id,
    cardholder: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    nickname: z.string(),
    purpose: z.enum(CARD_PURPOSES).describe('media = Visa, general = Mastercard'),
    brand: z.string(),
    type: z.enum(CARD_TYPES).describe('basic cards are loaded once; premium cards can be funded, withdrawn and frozen'),
    card_number: z
      .string()
      .describe("The full number for the card's owner on the card's own page; masked everywhere else"),
    masked_number: z.string(),
    last4: z.string(),
    card_token: z.string().optional().describe("Staff only: the issuer's token of the card"),
    balance: money,
    available: money,
    ledger: money.describe('Available plus payments still held'),
    spending_limit: money.nullable(),
    spending_control: z.enum(SPENDING_CONTROLS).nullable(),
    additional_spending_limit: money,
    state: z.enum(['Active', 'Deactivated']),
    is_deleted: z.boolean(),
    end_reason: z.string().nullable(),
    flagged: z.boolean(),
    flag_reason: z.string().nullable(),
    flagged_at: timestamp.nullable(),
    suspended: z.boolean(),
    suspend_reason: z.string().nullable(),
    suspend_at: timestamp.nullable(),
    unsuspend_at: timestamp.nullable(),
    owner_name: z.string().optional().describe('Lists only'),
    owner_type: z.enum(['Individual', 'Company']).optional().describe('Lists only'),
    created_by: z.string().optional().describe('Lists only: who created the card'),
    created_by_id: z
      .string()
      .uuid()
      .optional()
      .describe("Staff lists only: the id of who created the card (the 'Created By' filter)"),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ApiCard', description: 'A virtual card.' });

export const cardBilling = z
  .strictObject({
    AdrLine1: z.string(),
    AdrLine2: z.string(),
    City: z.string(),
    State: z.string(),
    Country: z.string(),
    ZipCode: z.string(),
  })
  .meta({ id: 'CardBilling', description: 'The billing address to give merchants.' });

export const apiCardDetail = z
  .strictObject({
    card: apiCard,
    details: z.strictObject({
      card_exp_month: z.number().int(),
      card_exp_year: z.number().int(),
      card_cvv: z.string().optional().describe("The card's owner only, while the card lives"),
    }),
    billing: cardBilling,
    additional_data: z
      .strictObject({
        spending_limit: money.nullable(),
        additional_spending_limit: money,
        approved_sum: money,
        settled_sum: money,
        reversal_sum: money,
        refund_sum: money,
        available: money,
        held: money.describe('What pending authorisations still hold'),
        debt: money.describe('What the card owes when clearings took more than it held (0.00 otherwise)'),
        ledger: money,
        total_issuance: money,
        total_topup: money,
        total_withdrawal: money,
        total_maintenance: money,
        total_fees: money,
      })
      .optional()
      .describe('Staff only: the sums of the card'),
  })
  .meta({ id: 'ApiCardDetail', description: 'A card with its secrets (for its owner) and billing address.' });

const CARD_TX_KINDS = [
  'authorization',
  'increment',
  'reversal',
  'clearing',
  'merchant_refund',
  'force_post',
  'expiry',
  'load',
  'withdrawal',
  'maintenance',
  'refund',
  'forfeit',
  'dispute_credit',
  'dispute_debit',
] as const;
const CARD_TX_STATUSES = ['approved', 'declined', 'reversed', 'settled', 'expired', 'completed'] as const;

export const apiCardTransaction = z
  .strictObject({
    id,
    card_id: id,
    kind: z
      .enum(CARD_TX_KINDS)
      .describe(
        "Merchant messages (authorisation, increment, reversal, clearing, merchant_refund, force_post, expiry) and the platform's own movements of the card's money",
      ),
    status: z
      .enum(CARD_TX_STATUSES)
      .describe('An authorisation: approved (pending), settled, reversed, expired or declined; other rows: completed'),
    description: z.string(),
    amount: money.describe('An authorisation: what was approved in total, increments included'),
    currency: z.string(),
    merchant: z.string(),
    country: z.string(),
    decline_reason: z.string().nullable(),
    authorization_id: id.nullable().describe('The authorisation this step belongs to'),
    mcc: z.string().nullable().describe("The merchant's category code, four digits"),
    merchant_category: z.string().nullable().describe('The category name of the mcc, e.g. restaurants'),
    decline_code: z.enum(DECLINE_CODES).nullable(),
    decided_by: z.enum(DECIDED_BY).nullable(),
    decision_ms: z.number().int().nullable().describe('How long the decision took, in milliseconds'),
    held: money.nullable().describe('An authorisation: what it still holds'),
    date_created: timestamp,
    date_updated: timestamp,
  })
  .meta({ id: 'ApiCardTransaction' });

export const cardFunded = z.strictObject({
  message: z.string(),
  amount: money,
  fees: money,
  total: money.describe('What the wallet paid: amount plus fees'),
});

export const cardWithdrawn = z.strictObject({
  message: z.string(),
  amount: money,
  fees: money,
  credited: money.describe('What the wallet received: amount less fees'),
});

export const spendingLimitSet = z.strictObject({
  message: z.string(),
  spending_limit: money,
  spending_control: z.enum(SPENDING_CONTROLS),
});

export const additionalLimitAdded = z.strictObject({
  message: z.string(),
  additional_spending_limit: money.describe('The new total'),
});

export const cardStatusChanged = z.strictObject({ message: z.string(), state: z.enum(['Active', 'Deactivated']) });

export const cardDeleted = z.strictObject({
  message: z.string(),
  returned: money.describe('Premium cards: the balance returned to the master wallet'),
  forfeited: money.describe('Basic cards: the balance forfeited'),
});

const purposeBalance = z.strictObject({ available: money, ledger: money });

export const masterBalances = z
  .strictObject({ general: purposeBalance, media: purposeBalance, tokencard: purposeBalance })
  .describe('Money on cards by purpose');

export const sandboxAuthorization = z.strictObject({
  approved: z.boolean(),
  approved_amount: money.describe('What was approved: the amount, less on a partial approval, 0.00 when declined'),
  decline_code: z.enum(DECLINE_CODES).nullable(),
  decline_reason: z.string().nullable(),
  transaction: apiCardTransaction.nullable().describe('The authorisation (after an increment: the authorisation row)'),
});

/** A reversal, clearing, refund or force-post the sandbox brought. */
export const sandboxStep = z.strictObject({
  message: z.string(),
  transaction: apiCardTransaction.describe('The row the step recorded'),
});

export const holdsExpired = z.strictObject({
  message: z.string(),
  expired: z.number().int().describe('How many authorisations expired'),
});

export const apiCardAllowance = z
  .strictObject({
    limit: z.number().int().nullable().describe('The lifetime card limit of an unverified account; null once verified'),
    created: z
      .number()
      .int()
      .describe('Cards the wallet has had, deleted ones included (not those the issuer never loaded)'),
    left: z.number().int().nullable().describe('Cards that may still be created; null when there is no limit'),
  })
  .meta({ id: 'ApiCardAllowance' });
