import { z } from 'zod';
import { CARD_PURPOSES, CARD_TYPES, SPENDING_CONTROLS } from './cards';
import { ROLES, VERIFICATION_STATES } from './roles';
import { CUSTOMER_STATES } from './verification';
import { CHAIN_DEPOSIT_REASONS, CHAIN_DEPOSIT_STATUSES, TOPUP_STATES } from './wallet';
import { NOTIFICATION_TYPES, type NotificationType } from './notifications';

/**
 * What the API answers, as zod schemas: the OpenAPI document's response schemas, and (in tests)
 * the check that every real answer matches them.
 *
 * Conventions:
 * - Objects are strict: a field the server sends but the schema does not name fails the check
 *   in tests, so the documentation cannot fall behind the answers. Free-form data (fee
 *   breakdowns, webhook payloads, audit details) is a record of unknown values, on purpose.
 * - No transforms or defaults: the schemas describe the answer exactly as it is sent.
 * - Entities carry an id (`.meta({ id })`) and become components of the OpenAPI document.
 */

// ---- Scalars -------------------------------------------------------------------------------

/** Money: integer cents on the server, a decimal string with exactly two decimals on the wire. */
export const money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('An amount as a decimal string with exactly two decimals, e.g. "1250.00" (USD / USDT unless stated).');

export const timestamp = z.iso
  .datetime()
  .describe('A moment in time: ISO 8601 in UTC, e.g. "2026-01-31T09:30:00.000Z".');

export const id = z.guid().describe('A UUID.');

/** Free-form objects whose keys vary (fee breakdowns, audit details, webhook payloads). */
const freeForm = (description: string) => z.record(z.string(), z.unknown()).describe(description);

// ---- Envelopes -----------------------------------------------------------------------------

/** The success envelope of almost every answer: `{ data }`. */
export const envelope = <T extends z.ZodType>(data: T) => z.strictObject({ data });

export const pageLinks = z
  .strictObject({
    first: z.string().nullable().describe('Path and query of the first page'),
    last: z.string().nullable().describe('Path and query of the last page'),
    prev: z.string().nullable().describe('The previous page, or null on the first'),
    next: z.string().nullable().describe('The next page, or null on the last'),
  })
  .meta({
    id: 'PageLinks',
    description:
      "Links to other pages of the same list; they keep the request's own filters and change only page and per_page.",
  });

const pageFields = {
  links: pageLinks,
  from: z
    .number()
    .int()
    .nullable()
    .describe('Position (1-based) of the first row on this page; null when the page is empty'),
  to: z.number().int().nullable().describe('Position of the last row on this page; null when the page is empty'),
  total: z.number().int().describe('Rows matching the filters, over all pages'),
  current_page: z.number().int().describe('This page (the `page` query parameter)'),
  last_page: z.number().int().describe('The last page (at least 1)'),
  per_page: z.number().int().describe('Rows per page (the `per_page` query parameter, 1 to 100, 25 by default)'),
};

/** The list envelope: one page of rows, links and counts. */
export function paged<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), ...pageFields });
}

/** A list envelope that adds `totals` over all pages. */
export function pagedWithTotals<T extends z.ZodType, S extends z.ZodRawShape>(item: T, totals: z.ZodObject<S>) {
  return paged(item).extend({
    totals: totals.describe('Sums over every row matching the filters, not only this page'),
  });
}

/** The one error shape: a message for people, and `error`: a string, or each field's messages. */
export const errorBody = z
  .strictObject({
    message: z.string().describe('What went wrong, in a sentence to show as it is'),
    error: z
      .union([
        z.string().describe('A short text or code (e.g. `invalid_client` from /oauth/token)'),
        z
          .record(z.string(), z.array(z.string()))
          .describe('On 422: each invalid field (dotted path) with its messages'),
      ])
      .describe('The error: a string, or on validation failures an object of field → messages'),
  })
  .meta({ id: 'ApiError', description: 'Every failure answers this shape.' });

/** `{ message }` alone, inside the envelope (logout, deletions, staff toggles). */
export const messageOnly = z.strictObject({ message: z.string() });

// ---- Accounts ------------------------------------------------------------------------------

const verificationState = z
  .enum(VERIFICATION_STATES)
  .describe('Verification state: Unverified, pending (in review) or Verified');

export const apiUser = z
  .strictObject({
    id,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    role: z.enum(ROLES),
    state: verificationState.describe(
      "The user's verification state (the company's for company users; staff are Verified)",
    ),
    entities: z
      .array(z.string())
      .describe("Capabilities granted by configuration, e.g. 'momo' for mobile-money payment confirmers"),
    company_id: id.nullable(),
    wallet_id: id
      .nullable()
      .describe(
        "The master wallet id: the user's own for an Individual, the company's for company users, null for staff",
      ),
    created_at: timestamp,
  })
  .meta({ id: 'ApiUser', description: 'The signed-in user.' });

export const apiCompany = z
  .strictObject({
    id,
    company_name: z.string(),
    company_website: z.string(),
    company_email: z.string(),
    company_phone: z.string(),
    state: verificationState,
  })
  .meta({ id: 'ApiCompany' });

export const apiVerificationStatus = z
  .strictObject({
    state: z.enum(['pending', 'approved', 'rejected']),
    reason: z.string().nullable().describe('Why it was rejected'),
    submitted_at: timestamp,
    decided_at: timestamp.nullable(),
  })
  .meta({ id: 'ApiVerificationStatus', description: "The customer's latest KYC/KYB submission." });

const profileShape = {
  user: apiUser,
  company: apiCompany.nullable().describe('The company of a company user; null otherwise'),
  verification: apiVerificationStatus
    .nullable()
    .describe('The latest KYC/KYB submission; null when none (and for staff)'),
};

export const profilePayload = z.strictObject(profileShape).meta({ id: 'ProfilePayload' });

export const sessionPayload = z
  .strictObject({
    access_token: z.string().describe('Send as `Authorization: Bearer <access_token>`'),
    expires_at: timestamp.describe('When the session ends at the latest (it also ends after 30 idle minutes)'),
    ...profileShape,
    recovery_codes: z
      .array(z.string())
      .optional()
      .describe(
        'auth-confirm only: 10 single-use recovery codes (like ABCDE-23456), shown this once; login-recover takes one in place of the authenticator code',
      ),
    recovery_codes_left: z
      .number()
      .int()
      .optional()
      .describe('login-recover only: how many unused recovery codes remain'),
  })
  .meta({ id: 'SessionPayload', description: 'A new session, with the profile.' });

export const loginChallenge = z
  .strictObject({
    token: z.string().describe('Send with the six-digit code to auth-confirm (first login) or login-confirm'),
    qrcode: z
      .string()
      .optional()
      .describe('First login only: a data: URL of the QR code to scan into an authenticator app'),
    secret: z.string().optional().describe('First login only: the TOTP secret, for typing in by hand'),
  })
  .meta({ id: 'LoginChallenge', description: 'The password was right; the second factor is next.' });

export const recoveryCodesIssued = z.strictObject({
  recovery_codes: z.array(z.string()).describe('10 new single-use codes; the earlier ones no longer work'),
  message: z.string(),
});
export const twoFactorStatus = z.strictObject({
  enabled: z.boolean().describe('Whether two-factor authentication is set up'),
  recovery_codes_left: z.number().int().describe('Unused recovery codes'),
});
export const authenticatorEnrolment = z.strictObject({
  qrcode: z.string().describe('Base64 of an SVG QR code to scan into the new authenticator app'),
  secret: z.string().describe('The new TOTP secret, for typing in by hand'),
});

export const individualRegistered = z.strictObject({ id, email: z.string(), message: z.string() });
export const companyRegistered = z.strictObject({
  id: id.describe("The admin user's id"),
  company_id: id,
  email: z.string(),
  message: z.string(),
});
export const resetRequested = z.strictObject({ code: z.literal(202), message: z.string() });
export const passwordSet = z.strictObject({ email: z.string(), message: z.string() });

export const companyUserRow = z
  .strictObject({
    id,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    role: z.enum(['admin', 'user']).describe('admin = Company-Admin, user = Company-User'),
    state: z.enum(['Invited', 'Active', 'Deactivated']),
    created_at: timestamp,
  })
  .meta({ id: 'CompanyUser' });

export const apiAdmin = z
  .strictObject({
    id,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    role: z.enum(['admin', 'super-admin']),
    state: z.enum(['Active', 'Invited']).describe('Invited until the password has been set from the mailed link'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiAdmin' });

export const apiAuditEntry = z
  .strictObject({
    id,
    actor_id: id,
    actor_email: z.string(),
    actor_role: z.string(),
    action: z.string().describe('What was done, e.g. topup.approve, card.flag'),
    object_type: z.string(),
    object_id: z.string().nullable(),
    details: freeForm('The request body (secrets removed) and the route'),
    status: z.number().int().describe('The HTTP status of the answer'),
    ip: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiAuditEntry' });

const customerRowCommon = {
  state: z.enum(CUSTOMER_STATES),
  master_wallet: money.describe('The master wallet balance'),
  cards_count: z.number().int(),
  active_cards_count: z.number().int(),
  created_at: timestamp,
};

export const apiIndividualCustomer = z
  .strictObject({
    id,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    role: z.string(),
    ...customerRowCommon,
  })
  .meta({ id: 'ApiIndividualCustomer', description: 'An Individual in the customer database.' });

export const apiCompanyCustomer = z
  .strictObject({
    id,
    company_name: z.string(),
    company_website: z.string(),
    company_email: z.string(),
    company_phone: z.string(),
    users_count: z.number().int(),
    ...customerRowCommon,
  })
  .meta({ id: 'ApiCompanyCustomer', description: 'A company in the customer database.' });

// ---- Wallet --------------------------------------------------------------------------------

const topupMethod = z.enum(['Tron', 'Momo']);
const personName = z.strictObject({ first_name: z.string(), last_name: z.string() });
export const chainCheck = z
  .strictObject({
    checked_at: timestamp,
    found: z.boolean(),
    unavailable: z.boolean().optional(),
    to: z.string().optional(),
    amount: money.optional(),
    confirmations: z.number().int().optional(),
    settled: z.boolean().optional(),
    matches: z.boolean().optional(),
  })
  .meta({ id: 'ChainCheck', description: 'What the chain said about a submitted transaction hash.' });

export const apiTopup = z
  .strictObject({
    id,
    reference: z.string(),
    code: z.string().describe('Short code the customer quotes when paying by mobile money'),
    name: z.string().describe("The wallet owner's name"),
    name_type: z.enum(['Individual', 'Company']),
    wallet_id: id,
    amount: money,
    method: topupMethod,
    transaction_hash: z.string().nullable(),
    state: z.enum(TOPUP_STATES),
    reason: z.string().nullable().describe('Why it was denied'),
    fee: money.nullable(),
    credited: money.nullable().describe('What the wallet received (amount less fee), once approved'),
    momo_amount: money.nullable().describe('Mobile money only: the amount to send, in GHS'),
    balance_before: money.nullable(),
    balance_after: money.nullable(),
    loader: z
      .strictObject({ first_name: z.string(), last_name: z.string(), role: z.string() })
      .nullable()
      .describe('Who requested it'),
    company: z.string().nullable(),
    fees_meta: freeForm('The fee breakdown of an approved top-up').nullable(),
    credited_automatically: z
      .boolean()
      .describe('Approved by the chain (the deposit watcher, or the hash checked on the chain), not by a person'),
    decided_by: personName.nullable().describe('The staff member who approved or denied it'),
    chain_check: chainCheck.nullable().describe('Tron: what the chain said about the submitted hash'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ApiTopup', description: 'A wallet top-up request.' });

export const depositAddress = z
  .strictObject({
    address: z.string().describe('A Tron base58check address (34 characters, starting with T), this wallet’s own'),
    network: z.literal('Tron USDT (TRC20)'),
  })
  .meta({ id: 'DepositAddress', description: 'Where USDT sent on Tron credits this wallet by itself.' });

export const apiChainDeposit = z
  .strictObject({
    id,
    hash: z.string().describe('The Tron transaction id'),
    log_index: z.number().int().describe('Which USDT transfer of the transaction'),
    to: z.string(),
    from: z.string(),
    amount: money,
    block_number: z.number().int(),
    block_time: timestamp,
    status: z.enum(CHAIN_DEPOSIT_STATUSES),
    reason: z
      .enum(CHAIN_DEPOSIT_REASONS)
      .nullable()
      .describe('Why staff decide: no-wallet, below-minimum or amount-mismatch'),
    wallet_id: id.nullable(),
    name: z.string().nullable(),
    topup_reference: z.string().nullable(),
    note: z.string().nullable(),
    return_hash: z.string().nullable(),
    decided_by: personName.nullable(),
    decided_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiChainDeposit', description: 'A settled USDT transfer to one of the platform’s addresses.' });

export const topupInstructions = z
  .strictObject({
    reference: z.string(),
    code: z.string(),
    method: topupMethod,
    amount: money,
    tron: z
      .strictObject({ network: z.string(), address: z.string() })
      .optional()
      .describe('Tron top-ups: where to send the USDT'),
    momo: z
      .strictObject({
        network: z.string(),
        momo_number: z.string(),
        momo_name: z.string(),
        amount_to_send: money.describe('In GHS'),
        currency: z.literal('GHS'),
        pay_reference: z.string(),
      })
      .optional()
      .describe('Mobile-money top-ups: whom to pay, how much and with which reference'),
  })
  .meta({ id: 'TopupInstructions', description: 'How to pay a top-up.' });

export const topupConfirmed = z.strictObject({
  message: z.string(),
  reference: z.string(),
  state: z.enum(TOPUP_STATES),
  transaction_hash: z.string().nullable(),
  chain_check: chainCheck.nullable(),
});

export const sandboxChainTransfer = z.strictObject({
  hash: z.string().describe('64 hexadecimal characters, like a Tron transaction id'),
});

export const topupDecision = z.strictObject({ message: z.string(), state: z.enum(['Approved', 'Denied']) });
export const momoProcessed = z.strictObject({ message: z.string(), state: z.literal('MoMo processed') });

export const transferDone = z
  .strictObject({
    message: z.string(),
    id,
    trans_ref: z.string(),
    wallet_from: id,
    wallet_to: id,
    to_name: z.string(),
    amount: money,
    reference: z.string().nullable(),
    status: z.literal('Completed'),
    balance_before: money.describe("The sender's balance before"),
    balance_after: money.describe("The sender's balance after"),
    created_at: timestamp,
  })
  .meta({ id: 'TransferResult' });

export const apiWalletTransaction = z
  .strictObject({
    id,
    trans_ref: z.string(),
    type: z.string().describe('deposit, transfer, issuance, topup, withdraw, refund, maintenance, api_fee, …'),
    direction: z.enum(['credit', 'debit']),
    amount: money,
    fees: money,
    fees_meta: freeForm('The fee breakdown, with the balances before and after').nullable(),
    card_number: z.string().nullable().describe('Masked number of the card concerned, if any'),
    description: z.string().nullable(),
    balance_before: money,
    balance_after: money,
    created_at: timestamp,
  })
  .meta({ id: 'ApiWalletTransaction', description: 'One movement of a master wallet.' });

export const walletTransactionTotals = z.strictObject({ amount: money, fees: money });

export const apiWalletTransfer = z
  .strictObject({
    id,
    trans_ref: z.string(),
    wallet_from: z.string(),
    wallet_to: z.string(),
    from_name: z.string().nullable(),
    to_name: z.string().nullable(),
    amount: money,
    reference: z.string().nullable(),
    transferer: z.string().nullable().describe('Who made the transfer'),
    type: z
      .enum(['Debit', 'Credit', 'Transfer'])
      .describe("Debit or Credit from the named wallet's side; Transfer in staff's unfiltered list"),
    status: z.literal('Completed'),
    balance_before: money.nullable(),
    balance_after: money.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ApiWalletTransfer', description: 'A wallet-to-wallet transfer.' });

export const momoUser = z
  .strictObject({
    id: z.string().uuid(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    company_name: z.string().nullable().describe('The company of a company user'),
  })
  .meta({ id: 'MomoUser', description: 'A customer who may confirm mobile-money payments.' });

export const momoDetails = z
  .strictObject({
    rate: z.string().describe('GHS per USD, up to 4 decimals'),
    flat_fee: money.describe('In GHS'),
    network: z.string(),
    momo_number: z.string(),
    momo_name: z.string(),
    momo_alert_emails: z.array(z.string()).optional().describe('Super-Admin only'),
    entity_users: z.array(z.string()).optional().describe('Super-Admin only: ids of the users who confirm payments'),
    confirmation_users: z
      .array(momoUser)
      .optional()
      .describe('Super-Admin only: the users of entity_users, by name and email'),
  })
  .meta({ id: 'MomoDetails', description: 'Where and how customers pay by mobile money.' });

// ---- Fees ----------------------------------------------------------------------------------

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

// ---- Cards ---------------------------------------------------------------------------------

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

// ---- Verification --------------------------------------------------------------------------

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

// ---- API integration -----------------------------------------------------------------------

export const oauthToken = z
  .strictObject({
    access_token: z.string().describe('Send as `Authorization: Bearer <access_token>`'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Seconds'),
  })
  .meta({ id: 'OAuthToken', description: 'An access token (RFC 6749 §5.1): not wrapped in `data`.' });

export const apiClientCredentials = z
  .strictObject({
    client_id: z.string().nullable(),
    client_secret: z.string().nullable().describe('Only in the answer that created the credentials; null afterwards'),
    revoked: z.boolean().describe('true when the company has no active credentials'),
    name: z.string().optional(),
    created_at: timestamp.optional(),
    last_used_at: timestamp.nullable().optional(),
  })
  .meta({ id: 'ApiClientCredentials' });

export const apiCallbackDetails = z
  .strictObject({
    callback_url: z.string().nullable(),
    active: z.boolean(),
    signing_secret: z.string().nullable().describe('Verifies the webhook-signature header of each delivery'),
    disabled_reason: z.string().nullable(),
  })
  .meta({ id: 'ApiCallbackDetails' });

export const apiThirdParty = z
  .strictObject({
    id,
    name: z.string(),
    client_id: z.string(),
    company_id: id,
    company_name: z.string(),
    state: z.enum(['Active', 'Revoked']),
    last_used_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    webhook: z.strictObject({
      url: z.string().nullable(),
      active: z.boolean(),
      health: z.enum(['healthy', 'failing', 'disabled', 'none']),
      last_status: z.number().int().nullable(),
      failed_events: z.number().int(),
      pending_events: z.number().int(),
    }),
  })
  .meta({ id: 'ApiThirdParty', description: "A company's API client, for staff." });

export const apiWebhookEvent = z
  .strictObject({
    id,
    message_id: z.string(),
    type: z.string().describe('e.g. card.authorization.approved'),
    state: z.enum(['pending', 'delivered', 'failed', 'skipped']),
    attempts: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    delivered_at: timestamp.nullable(),
    created_at: timestamp,
    payload: freeForm('The event as it is (or was) delivered'),
    deliveries: z.array(
      z.strictObject({
        attempt: z.number().int(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        duration_ms: z.number().int().nullable(),
        next_retry_at: timestamp.nullable(),
        created_at: timestamp,
      }),
    ),
  })
  .meta({ id: 'ApiWebhookEvent', description: 'A webhook event and its delivery attempts.' });

// ---- Reports -------------------------------------------------------------------------------

export const statistics = z
  .strictObject({
    total_wallet_balance: money,
    total_card_balance: money,
    total_fees_amount: money,
    total_topups_fees: money,
    total_card_balance_general: money,
    total_card_balance_media: money,
    total_card_balance_tokencard: money,
    total_topups_amount: money,
    total_topups: z.number().int(),
    total_transactions: z.number().int(),
    total_transactions_amount: money,
    total_cards: z.number().int(),
    total_activated_cards: z.number().int(),
    total_deactivated_cards: z.number().int(),
    total_deleted_cards: z.number().int(),
    total_basic_cards: z.number().int(),
    total_premium_cards: z.number().int(),
    total_general_cards: z.number().int(),
    total_media_cards: z.number().int(),
    total_company_cards: z.number().int(),
    total_individual_cards: z.number().int(),
    total_maintenance: z.number().int(),
    total_maintenance_amount: money,
  })
  .meta({ id: 'Statistics', description: 'Back-office figures for the date range; balances as of its end.' });

const period = z.string().describe('The first day of the period, YYYY-MM-DD (UTC)');
export const statisticsSeries = z
  .strictObject({
    interval: z.enum(['day', 'week', 'month']),
    topups: z.array(z.strictObject({ period, method: topupMethod, count: z.number().int(), amount: money })),
    card_transactions: z.array(z.strictObject({ period, status: z.string(), count: z.number().int(), amount: money })),
    fees: z.array(z.strictObject({ period, kind: z.string(), amount: money })),
  })
  .meta({ id: 'StatisticsSeries', description: 'Activity per period, for charts.' });

export const health = z.strictObject({ status: z.literal('ok'), database: z.string().describe('pglite or postgres') });
export const helpdeskSent = z.strictObject({ id, message: z.string() });

/** An answer with no JSON body (a redirect). */
export const noBody = z.undefined();

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

export const topupTotals = z.strictObject({
  amount: money.describe('Every top-up matching the filters'),
  received: money.describe('Approved: credited to wallets'),
  pending: money.describe('Not decided yet (Pending, Hash-provided, MoMo processed)'),
  denied: money,
});

// ---- Reconciliation ------------------------------------------------------------------------

export const apiReconciliationRun = z
  .strictObject({
    run_at: timestamp.nullable().describe('When the last run was; null before the first'),
    checked: z.number().int().describe('Cards compared'),
    drift: z.array(
      z
        .strictObject({
          card_id: id,
          ledger: money.describe("The card's ledger balance (available to spend)"),
          issuer: money.nullable().describe('What the card issuer holds on it; null when it does not know the card'),
          reason: z.string(),
        })
        .meta({ id: 'ApiReconciliationDrift' }),
    ),
  })
  .meta({ id: 'ApiReconciliationRun' });

export const apiIssuerOperation = z
  .strictObject({
    id: id.describe('The operation id the card issuer deduplicates on'),
    operation: z.enum(['issue', 'load', 'unload', 'freeze', 'unfreeze', 'terminate']),
    purpose: z.string().describe('Why it was owed, e.g. card-funding, card-withdrawal, maintenance'),
    state: z.enum(['pending', 'done', 'failed']),
    card_id: id,
    card_nickname: z.string(),
    card_number: z.string().describe('Masked'),
    wallet_id: id,
    amount: money.nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    next_attempt_at: timestamp.nullable().describe('When a pending operation is tried next'),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
    refund: z
      .strictObject({ reference: z.string(), amount: money, description: z.string().nullable() })
      .nullable()
      .describe('The ledger transfer that gave the customer their money back after a final failure'),
  })
  .meta({ id: 'ApiIssuerOperation' });

// ---- Notifications -------------------------------------------------------------------------

const notificationType = z.enum(Object.keys(NOTIFICATION_TYPES) as [NotificationType, ...NotificationType[]]);

export const apiNotification = z
  .strictObject({
    id,
    type: notificationType,
    title: z.string(),
    body: z.string().describe('One or more lines of plain text'),
    link: z
      .string()
      .nullable()
      .describe("The screen it is about, as a path of the recipient's app (e.g. /portal/prepaid-cards/{id})"),
    read_at: timestamp.nullable().describe('When it was opened or marked read; null while unread'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiNotification' });

export const notificationPage = paged(apiNotification).extend({
  unread: z.number().int().describe("How many of the caller's notifications are unread, on every page"),
});

export const notificationsMarked = z.strictObject({
  marked: z.number().int().describe('How many were unread and are now read'),
  unread: z.number().int().describe('How many remain unread'),
});

export const apiNotificationSetting = z
  .strictObject({
    type: notificationType,
    label: z.string(),
    group: z.enum(['money', 'account', 'security', 'staff']),
    mail: z.boolean().describe('Whether a mail goes out for this type'),
    locked: z.boolean().describe('Security mails are always sent: mail cannot be turned off'),
  })
  .meta({ id: 'ApiNotificationSetting' });
