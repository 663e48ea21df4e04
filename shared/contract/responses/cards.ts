import { z } from 'zod';
import { CARD_PURPOSES, CARD_TYPES, SPENDING_CONTROLS } from '../lists';
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
        available: money,
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

export const apiCardTransaction = z
  .strictObject({
    id,
    card_id: id,
    kind: z
      .enum(['authorization', 'load', 'withdrawal', 'maintenance', 'refund', 'forfeit'])
      .describe("Merchant authorisations, and the platform's own movements of the card's money"),
    status: z.enum(['approved', 'declined', 'reversed', 'settled', 'completed']),
    description: z.string(),
    amount: money,
    currency: z.string(),
    merchant: z.string(),
    country: z.string(),
    decline_reason: z.string().nullable(),
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
  decline_reason: z.string().nullable(),
  transaction: apiCardTransaction.nullable(),
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
