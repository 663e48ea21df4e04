import { z } from 'zod';
import * as R from '@shared/contract/responses';

/**
 * Every answer of every /api/v1 route, by `METHOD /path` as the route is registered: success
 * bodies and the errors the route can give. Attached to the routes at startup (see ./attach.ts),
 * so the route files stay as they are; a route without an entry stops the app in development
 * and test.
 */

/** A response whose body is not JSON (a file), described by media type. */
export interface ContentResponse {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}
export type ResponseSchema = z.ZodType | ContentResponse;
export type RouteResponses = Record<number, ResponseSchema>;

export const isContentResponse = (r: ResponseSchema): r is ContentResponse =>
  !(r instanceof z.ZodType) && 'content' in r;

// ---- Building blocks -----------------------------------------------------------------------

/** A success answer with the text the document shows for it. */
const ok = (schema: z.ZodType, description: string) => schema.describe(description);
const data = (schema: z.ZodType, description: string) => ok(R.envelope(schema), description);
const text = (description: string, example: string) =>
  ok(R.envelope(z.string().describe(`e.g. "${example}"`)), description);
const message = (description: string) => ok(R.envelope(R.messageOnly), description);

/** A reason a route answers an error status; a route's reasons for one status are joined. */
interface Why {
  status: number;
  why: string;
}
const e = (status: number, why: string): Why => ({ status, why });

/** Portal endpoints: a session token only (API access tokens get 403). */
const SIGNED_IN = [
  e(401, 'Not signed in, or the session has ended.'),
  e(403, 'An API access token was sent: this endpoint is for the portals only.'),
];
/** Endpoints that also take API access tokens (client credentials). */
const SIGNED_IN_OR_API = [e(401, 'Not signed in, or the session or API access token has ended.')];
const STAFF = [...SIGNED_IN, e(403, 'Staff (Admin, Super-Admin) only.')];
const SUPER_ADMIN = [...SIGNED_IN, e(403, 'Super-Admin only.')];
const CUSTOMER_OR_API = [...SIGNED_IN_OR_API, e(403, 'Customers only (Individual, Company-Admin, Company-User).')];
const COMPANY_MEMBER = [...SIGNED_IN, e(403, 'Company users only.')];

/** A JSON body (or form) validated by its schema. */
const BODY = [
  e(400, 'The body is not valid JSON.'),
  e(413, 'The body is too large.'),
  e(415, 'The content type is not supported.'),
  e(422, 'A field is invalid: `error` maps each field to its messages.'),
];
const QUERY = [e(422, 'A query parameter is invalid: `error` maps each parameter to its messages.')];
const PATH = [e(404, 'An id in the path is malformed (ids are UUIDs) or unknown.')];
/** Authenticated mutations honour the Idempotency-Key header. */
const IDEMPOTENT = [
  e(400, 'The Idempotency-Key header is not 1 to 255 characters.'),
  e(409, 'A request with this Idempotency-Key is still being processed.'),
  e(422, 'This Idempotency-Key was already used for a different request.'),
];
const RATE_LIMITED = e(
  429,
  'Too many failed attempts from this address or for this account: wait for the Retry-After seconds.',
);

/** The error answers of a route, each described by all its reasons, all in the one error shape. */
function fails(...reasons: Array<Why | Why[]>): RouteResponses {
  const by = new Map<number, string[]>();
  for (const r of reasons.flat()) {
    const list = by.get(r.status) ?? [];
    if (!list.includes(r.why)) list.push(r.why);
    by.set(r.status, list);
  }
  return Object.fromEntries(
    [...by].sort(([a], [b]) => a - b).map(([status, why]) => [status, R.errorBody.describe(why.join(' '))]),
  );
}

/** A stored document, sent as an attachment in the type it was uploaded as. */
const file = (description: string): ContentResponse => {
  const schema = z.string().meta({ format: 'binary' });
  return { description, content: { 'application/pdf': { schema }, 'image/jpeg': { schema }, 'image/png': { schema } } };
};

/** A report streamed as CSV (UTF-8 with a byte-order mark, CRLF lines, a header row). */
export const csv = (description: string): ContentResponse => ({
  description,
  content: { 'text/csv': { schema: z.string().describe('CSV: a header row, then one row per record') } },
});

/** A document the server makes (a statement), as an attachment. */
const pdf = (description: string): ContentResponse => ({
  description,
  content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
});

const redirect = (description: string) => R.noBody.describe(description);

// ---- The routes ----------------------------------------------------------------------------

export const RESPONSES: Record<string, RouteResponses> = {
  // Health
  'GET /api/v1/health': {
    200: data(R.health, 'The API and its database are up.'),
    ...fails(e(503, 'The database is not reachable.')),
  },

  // Account
  'POST /api/v1/account/individuals/register': {
    201: data(R.individualRegistered, 'Registered; a verification link was mailed.'),
    ...fails(BODY, e(422, 'The email has already been taken.')),
  },
  'POST /api/v1/account/companies/register': {
    201: data(
      R.companyRegistered,
      'The company and its admin user registered; a verification link was mailed to the admin.',
    ),
    ...fails(BODY, e(422, 'The email has already been taken.')),
  },
  'GET /api/v1/account/verify-email': {
    302: redirect(
      'The link from the verification mail: redirects (Location header) to /onboarding/email-verified, or to /onboarding/error with a message when the link is invalid or has expired.',
    ),
    ...fails(QUERY),
  },
  'POST /api/v1/account/login': {
    200: data(
      R.loginChallenge,
      'Password accepted: confirm with the authenticator code (auth-confirm on the first login, else login-confirm).',
    ),
    ...fails(
      BODY,
      e(401, 'Invalid email or password.'),
      e(403, 'The account is deactivated, or its email address is not verified yet (a new link is mailed).'),
      RATE_LIMITED,
    ),
  },
  'POST /api/v1/account/auth-confirm': {
    200: data(R.sessionPayload, 'Two-factor authentication set up; signed in.'),
    ...fails(
      BODY,
      e(401, 'The login attempt has expired, or the code is incorrect or already used.'),
      e(403, 'The account is deactivated or its email is not verified.'),
      e(409, 'Two-factor authentication is already set up: use login-confirm.'),
      RATE_LIMITED,
    ),
  },
  'POST /api/v1/account/login-confirm': {
    200: data(R.sessionPayload, 'Signed in.'),
    ...fails(
      BODY,
      e(401, 'The login attempt has expired, or the code is incorrect or already used.'),
      e(403, 'The account is deactivated or its email is not verified.'),
      e(409, 'Two-factor authentication is not set up yet: use auth-confirm.'),
      RATE_LIMITED,
    ),
  },
  'POST /api/v1/account/login-recover': {
    200: data(
      R.sessionPayload,
      'Signed in with a recovery code, which is now used up (`recovery_codes_left` says how many remain).',
    ),
    ...fails(
      BODY,
      e(401, 'The login attempt has expired, or the recovery code is not valid or already used.'),
      e(403, 'The account is deactivated or its email is not verified.'),
      e(409, 'Two-factor authentication is not set up yet: use auth-confirm.'),
      RATE_LIMITED,
    ),
  },
  'GET /api/v1/account/two-factor': {
    200: data(R.twoFactorStatus, "The signed-in user's two-factor state and unused recovery codes."),
    ...fails(SIGNED_IN),
  },
  'POST /api/v1/account/recovery-codes': {
    200: data(
      R.recoveryCodesIssued,
      'A new set of recovery codes, shown this once; the old set stops working. Idempotency-Key is ignored: the answer is never stored.',
    ),
    ...fails(
      SIGNED_IN,
      BODY,
      e(409, 'Two-factor authentication is not set up.'),
      e(422, 'The password, the code or the recovery code (then used up) is wrong.'),
      RATE_LIMITED,
    ),
  },
  'POST /api/v1/account/two-factor/enrol': {
    200: data(
      R.authenticatorEnrolment,
      'A new authenticator key to scan; the current one works until enrol-confirm. Idempotency-Key is ignored.',
    ),
    ...fails(
      SIGNED_IN,
      BODY,
      e(409, 'Two-factor authentication is not set up.'),
      e(422, 'The password, the code or the recovery code (then used up) is wrong.'),
      RATE_LIMITED,
    ),
  },
  'POST /api/v1/account/two-factor/enrol-confirm': {
    200: message('The new authenticator replaces the old one; every other session of the user has ended.'),
    ...fails(
      SIGNED_IN,
      BODY,
      e(409, 'No new authenticator is waiting (none started, or it was over an hour ago).'),
      e(422, 'The code is not one the new authenticator shows.'),
    ),
  },
  'POST /api/v1/account/reset-2fa/:userId': {
    200: message(
      "Reset: the user's key and recovery codes are gone, their sessions ended, and they were told; their next login sets 2FA up again.",
    ),
    ...fails(
      STAFF,
      PATH,
      BODY,
      IDEMPOTENT,
      e(403, "Staff cannot reset their own 2FA, and only a Super-Admin resets another staff member's."),
      e(404, 'No such user.'),
      e(409, 'The user has not set up two-factor authentication yet.'),
    ),
  },
  'POST /api/v1/account/reset': {
    202: data(
      R.resetRequested,
      'The same answer whether or not the email has an account; a reset link is mailed if it has.',
    ),
    ...fails(BODY, e(429, 'Too many reset requests from this address: wait for the Retry-After seconds.')),
  },
  'POST /api/v1/account/reset-password': {
    200: data(R.passwordSet, 'The password is set (every session of the account ends).'),
    ...fails(BODY, e(422, 'The link is invalid or has expired (`error.token`).')),
  },
  'POST /api/v1/account/accept-invite': {
    200: data(R.passwordSet, 'The invitation is accepted; the user can log in.'),
    ...fails(BODY, e(422, 'The invitation is invalid, has expired or was already accepted (`error.token`).')),
  },
  'DELETE /api/v1/account/logout': {
    200: message('This session has ended.'),
    ...fails(SIGNED_IN, IDEMPOTENT),
  },
  'POST /api/v1/account/helpdesk': {
    201: data(R.helpdeskSent, 'The message was stored and mailed to support.'),
    ...fails(
      BODY,
      IDEMPOTENT,
      e(403, 'An API access token was sent: this endpoint is for the portals only.'),
      e(429, 'Too many messages from this address: wait for the Retry-After seconds.'),
      e(503, 'The message was saved but could not be mailed to support; try again later.'),
    ),
  },

  // Profile
  'GET /api/v1/individuals/profile': {
    200: data(R.profilePayload, 'The signed-in user, their company and their latest verification.'),
    ...fails(SIGNED_IN_OR_API, e(404, 'The user no longer exists.')),
  },
  'PUT /api/v1/individuals/:id': {
    200: data(R.profilePayload, 'Saved; the updated profile.'),
    ...fails(SIGNED_IN, PATH, BODY, IDEMPOTENT, e(404, 'The id is not the signed-in user.')),
  },
  'PUT /api/v1/companies/:id': {
    200: data(R.profilePayload, 'Saved; the profile with the updated company.'),
    ...fails(
      SIGNED_IN,
      PATH,
      BODY,
      IDEMPOTENT,
      e(403, 'Only a company admin changes the company details.'),
      e(404, "The id is not the user's company."),
    ),
  },
  'PATCH /api/v1/individuals/change-password/:id': {
    200: message(
      'Changed; every session of the user has ended, this one included. Idempotency-Key is ignored (passwords are never fingerprinted).',
    ),
    ...fails(
      SIGNED_IN,
      PATH,
      BODY,
      e(404, 'The id is not the signed-in user.'),
      e(422, 'The current password is incorrect, or the new one equals it.'),
      RATE_LIMITED,
    ),
  },

  // Company users
  'GET /api/v1/company/users/:companyId': {
    200: ok(R.paged(R.companyUserRow), "A page of the company's users (its admins, and staff read-only)."),
    ...fails(
      SIGNED_IN,
      PATH,
      QUERY,
      e(403, 'Only a company admin (or staff) lists the users.'),
      e(404, "The id is not the user's company, or (staff) no such company."),
    ),
  },
  'POST /api/v1/company/users/:companyId': {
    201: data(R.companyUserRow, 'Invited; an invitation was mailed.'),
    ...fails(
      COMPANY_MEMBER,
      PATH,
      BODY,
      IDEMPOTENT,
      e(403, 'Only a company admin manages users.'),
      e(404, "The id is not the user's company."),
      e(422, 'The email has already been taken.'),
    ),
  },
  'PUT /api/v1/company/users/:companyId/:userId': {
    200: data(R.companyUserRow, 'The role is changed.'),
    ...fails(
      COMPANY_MEMBER,
      PATH,
      BODY,
      IDEMPOTENT,
      e(403, 'Only a company admin manages users, and not their own account.'),
      e(404, 'The company or the user was not found.'),
    ),
  },
  'DELETE /api/v1/company/users/:companyId/:userId': {
    202: message('The user is deleted and signed out.'),
    ...fails(
      COMPANY_MEMBER,
      PATH,
      IDEMPOTENT,
      e(403, 'Only a company admin manages users, and not their own account.'),
      e(404, 'The company or the user was not found.'),
    ),
  },

  // Fees
  'GET /api/v1/fees': {
    200: ok(
      z.union([
        R.envelope(z.array(R.apiFee)).describe(
          "Customers: the schedule that applies to them (their company's, or the defaults)",
        ),
        R.paged(R.apiFee).describe('Staff: a page of every row of the schedule, defaults and company overrides'),
      ]),
      'Customers: the fee schedule that applies to them. Staff: a page of the whole schedule.',
    ),
    ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'A customer named a company that is not theirs (`for_id`).')),
  },
  'PUT /api/v1/fees/:id': {
    200: data(R.apiFee, "Saved. Editing a default fee `for` a company creates or updates that company's own row."),
    ...fails(SUPER_ADMIN, PATH, BODY, IDEMPOTENT, e(404, 'The fee or the company was not found.')),
  },
  'GET /api/v1/company/fees/:id': {
    200: ok(
      z.strictObject({ data: z.array(R.apiFee), company: z.strictObject({ id: R.id, company_name: z.string() }) }),
      "The company's schedule: its own rows over the defaults (`inherited`), and the company it is for.",
    ),
    ...fails(SUPER_ADMIN, PATH, e(404, 'The company was not found.')),
  },

  // Mobile money
  'GET /api/v1/param/momo-details': {
    200: data(R.momoDetails, 'Where to pay by mobile money (alert emails and confirmers for the Super-Admin only).'),
    ...fails(SIGNED_IN_OR_API),
  },
  'GET /api/v1/param/momo-users': {
    200: data(
      z.array(R.momoUser),
      'Customers matching the search by name or email (20 at most), to name as confirmation users.',
    ),
    ...fails(SUPER_ADMIN, QUERY),
  },
  'PUT /api/v1/param/momo-sync': {
    200: ok(z.strictObject({ message: z.string(), data: R.momoDetails }), 'Saved; the settings as stored.'),
    ...fails(SUPER_ADMIN, BODY, IDEMPOTENT, e(422, 'A confirmation user id is not a customer (`error.entity_users`).')),
  },

  // Wallet
  'GET /api/v1/wallet/account-balance/:id': {
    200: data(R.money, 'The master wallet\'s balance, e.g. {"data": "1250.00"}.'),
    ...fails(SIGNED_IN_OR_API, PATH, e(404, 'The wallet was not found or is not yours.')),
  },
  'POST /api/v1/wallet/topup-balance': {
    201: data(R.topupInstructions, 'A Pending top-up, and how to pay it.'),
    ...fails(
      CUSTOMER_OR_API,
      BODY,
      IDEMPOTENT,
      e(404, 'The wallet is not yours.'),
      e(422, 'The amount is below the minimum (1.00).'),
    ),
  },
  'GET /api/v1/wallet/topup/:reference': {
    200: data(R.topupInstructions, 'How to pay this top-up.'),
    ...fails(CUSTOMER_OR_API, e(404, 'The top-up was not found or is not yours.')),
  },
  'POST /api/v1/wallet/topup-confirm': {
    200: data(
      R.topupConfirmed,
      'The payment is noted and the hash looked up on the chain: Approved at once when it settled to this wallet’s address with the top-up’s amount, credited when it settles if it is still confirming; otherwise staff decide.',
    ),
    ...fails(
      CUSTOMER_OR_API,
      BODY,
      IDEMPOTENT,
      e(404, 'The top-up was not found or is not yours.'),
      e(409, 'This top-up was already confirmed.'),
      e(422, 'The transaction hash is missing, malformed or already used; or the code does not match.'),
    ),
  },
  'POST /api/v1/wallet/transfer': {
    200: data(R.transferDone, 'Transferred: final and atomic.'),
    ...fails(
      CUSTOMER_OR_API,
      BODY,
      IDEMPOTENT,
      e(404, 'Your wallet was not found.'),
      e(422, 'Insufficient balance, your own wallet, or no (active) wallet has this id.'),
    ),
  },
  'GET /api/v1/wallet/deposit-address/:walletId': {
    200: data(
      R.depositAddress,
      'The wallet’s own Tron address: USDT sent there is credited by itself once confirmed, less the 0.5% Tron fee.',
    ),
    ...fails(SIGNED_IN_OR_API, PATH, e(404, 'The wallet was not found or is not yours.')),
  },
  'GET /api/v1/wallet/chain-deposits': {
    200: ok(
      R.paged(R.apiChainDeposit),
      'Staff: settled USDT deposits to the platform’s addresses, newest first; Unassigned ones wait for staff.',
    ),
    ...fails(STAFF, QUERY),
  },
  'POST /api/v1/wallet/chain-deposits/:id/assign': {
    200: message('Staff: the deposit is credited to the wallet as an approved Tron top-up, less the fee.'),
    ...fails(
      STAFF,
      BODY,
      PATH,
      IDEMPOTENT,
      e(404, 'No such deposit or wallet.'),
      e(409, 'The deposit was already decided, or is less than a cent.'),
    ),
  },
  'POST /api/v1/wallet/chain-deposits/:id/return': {
    200: message('Staff: the deposit is marked as returned to its sender.'),
    ...fails(STAFF, BODY, PATH, IDEMPOTENT, e(404, 'No such deposit.'), e(409, 'The deposit was already decided.')),
  },
  'POST /api/v1/sandbox/chain/transfers': {
    201: data(
      R.sandboxChainTransfer,
      'Staff, sandbox chain: USDT sent to the address; the deposit watcher credits it once it has enough confirmations.',
    ),
    ...fails(STAFF, BODY, IDEMPOTENT, e(404, 'The sandbox chain is not in use (CHAIN=trongrid).')),
  },
  'GET /api/v1/wallet/list-topups': {
    200: ok(
      R.pagedWithTotals(R.apiTopup, R.topupTotals),
      'A page of top-ups, newest change first, with the totals: all, received (Approved), pending and denied.',
    ),
    ...fails(STAFF, QUERY),
  },
  'POST /api/v1/wallet/approve-topup': {
    200: data(R.topupDecision, 'Approved (the wallet is credited once) or denied.'),
    ...fails(
      STAFF,
      BODY,
      IDEMPOTENT,
      e(404, 'The top-up or its wallet was not found.'),
      e(409, 'The top-up was already decided, or is not ready (no transaction hash / momo confirmation yet).'),
    ),
  },
  'GET /api/v1/wallet/list-momo-topups': {
    200: ok(
      R.pagedWithTotals(R.apiTopup, R.topupTotals),
      'A page of mobile-money top-ups, with the totals: all, received (Approved), pending and denied.',
    ),
    ...fails(SIGNED_IN, QUERY, e(403, 'Only mobile-money agents and staff see these top-ups.')),
  },
  'POST /api/v1/wallet/momo-confirm': {
    200: data(R.momoProcessed, 'The mobile money arrived; the top-up waits for approval.'),
    ...fails(
      CUSTOMER_OR_API,
      BODY,
      IDEMPOTENT,
      e(403, 'Only mobile-money agents confirm payments.'),
      e(404, 'The top-up was not found.'),
      e(409, 'The top-up cannot be confirmed in its state.'),
    ),
  },

  // Reports
  'GET /api/v1/reports/view-wallet-transactions': {
    200: ok(
      R.pagedWithTotals(R.apiWalletTransaction, R.walletTransactionTotals),
      'A page of master-wallet movements, newest first (customers: their own wallet), with the totals.',
    ),
    ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The wallet was not found or is not yours.')),
  },
  'GET /api/v1/reports/view-wallet-transfers': {
    200: ok(R.paged(R.apiWalletTransfer), 'A page of wallet-to-wallet transfers, newest first.'),
    ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The wallet was not found or is not yours.')),
  },
  'GET /api/v1/reports/view-wallet-topups': {
    200: ok(
      R.pagedWithTotals(R.apiTopup, R.topupTotals),
      'A page of top-ups, with the totals: all, received (Approved), pending and denied.',
    ),
    ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The wallet was not found or is not yours.')),
  },
  'GET /api/v1/reports/wallet-statement': {
    200: pdf(
      'The statement as a PDF attachment: the account holder, the period (UTC days), the opening balance, every movement with its fees and the balance after it, and the closing balance, all as the ledger holds them.',
    ),
    ...fails(
      SIGNED_IN_OR_API,
      QUERY,
      e(404, 'The wallet was not found or is not yours.'),
      e(422, 'The period starts in the future, is longer than 366 days, or has more than 5,000 movements.'),
    ),
  },
  'GET /api/v1/reports/view-statistics': {
    200: data(R.statistics, 'The figures for the date range.'),
    ...fails(STAFF, QUERY),
  },
  'GET /api/v1/reports/view-statistics-series': {
    200: data(R.statisticsSeries, 'Activity per day, week or month.'),
    ...fails(STAFF, QUERY),
  },

  // Cards
  'POST /api/v1/cards': {
    201: data(R.apiCardDetail, 'The card is issued and loaded: with its full number, CVV and billing address.'),
    ...fails(
      CUSTOMER_OR_API,
      BODY,
      IDEMPOTENT,
      e(404, 'Your wallet was not found.'),
      e(
        422,
        'Below the minimum load (3.00), insufficient balance with fees, the nickname is taken, or the limit for unverified accounts (5 cards) is reached.',
      ),
      e(503, 'The card issuer did not complete the operation; nothing was charged.'),
    ),
  },
  'GET /api/v1/cards/allowance': {
    200: data(
      R.apiCardAllowance,
      "How many more cards the caller's wallet may have: unverified accounts may have 5 in all.",
    ),
    ...fails(CUSTOMER_OR_API),
  },
  'GET /api/v1/cards': {
    200: ok(R.paged(R.apiCard), 'A page of every card, newest first, with owners and issuer tokens.'),
    ...fails(STAFF, QUERY),
  },
  'GET /api/v1/cards/individual/:id': {
    200: data(z.array(R.apiCard), "The wallet's cards, newest first (all of them, not paged)."),
    ...fails(SIGNED_IN_OR_API, PATH, QUERY, e(404, "The wallet is not the caller's own individual wallet.")),
  },
  'GET /api/v1/cards/company/:id': {
    200: data(z.array(R.apiCard), "The company wallet's cards, newest first (all of them, not paged)."),
    ...fails(SIGNED_IN_OR_API, PATH, QUERY, e(404, "The wallet is not the caller's company wallet.")),
  },
  'GET /api/v1/cards/:id': {
    200: data(
      R.apiCardDetail,
      "The card. Its owner gets the full number and CVV; staff get the card's sums (`additional_data`).",
    ),
    ...fails(SIGNED_IN_OR_API, PATH, e(404, 'The card was not found or is not yours.')),
  },
  'PUT /api/v1/cards/:id': {
    201: data(R.spendingLimitSet, "The Visa card's spending limit is set."),
    ...fails(
      CUSTOMER_OR_API,
      PATH,
      BODY,
      IDEMPOTENT,
      e(404, 'The card was not found or is not yours.'),
      e(409, 'The card has been deleted.'),
      e(422, 'Spending limits apply to Visa cards only.'),
    ),
  },
  'POST /api/v1/cards/add-funds': {
    200: data(R.cardFunded, 'Premium cards: the wallet paid amount plus fees; the card received the amount.'),
    ...fails(
      SIGNED_IN_OR_API,
      BODY,
      IDEMPOTENT,
      e(404, 'The card was not found or is not yours.'),
      e(409, 'The card has been deleted.'),
      e(422, 'A basic card, below the minimum (3.00), or insufficient balance with fees.'),
    ),
  },
  'POST /api/v1/cards/withdraw-funds': {
    200: data(R.cardWithdrawn, 'Premium cards: the card gave the amount; the wallet received it less fees.'),
    202: data(
      R.cardWithdrawn,
      "The card issuer has not confirmed yet: the wallet receives the amount less fees as soon as it does. A retry with the same Idempotency-Key answers 409 until then, and the withdrawal's final answer after.",
    ),
    ...fails(
      SIGNED_IN_OR_API,
      BODY,
      IDEMPOTENT,
      e(404, 'The card was not found or is not yours.'),
      e(409, 'The card has been deleted.'),
      e(422, 'A basic card, the amount does not exceed the fees, the card holds less, or the card issuer refused.'),
    ),
  },
  'POST /api/v1/cards/add-spend-limit/:id': {
    200: data(R.additionalLimitAdded, 'Extra spending allowed on top of the limit.'),
    ...fails(
      CUSTOMER_OR_API,
      PATH,
      BODY,
      IDEMPOTENT,
      e(404, 'The card was not found or is not yours.'),
      e(409, 'The card has been deleted.'),
      e(422, 'Not a Visa card, no spending limit set yet, or `card` does not match the path.'),
    ),
  },
  'POST /api/v1/cards/change-status/:id': {
    202: data(R.cardStatusChanged, 'Premium cards: frozen (deactivate) or unfrozen (activate).'),
    ...fails(
      SIGNED_IN_OR_API,
      PATH,
      BODY,
      IDEMPOTENT,
      e(404, 'The card was not found or is not yours.'),
      e(409, 'The card has been deleted, or is already in that state.'),
      e(422, 'Basic cards cannot be frozen.'),
      e(503, 'The card issuer refused; nothing changed.'),
    ),
  },
  'POST /api/v1/cards/change-status-token': {
    202: data(R.cardStatusChanged, 'Staff: a card frozen or unfrozen by its issuer token.'),
    ...fails(
      STAFF,
      BODY,
      IDEMPOTENT,
      e(409, 'The card has been deleted, or is already in that state.'),
      e(422, 'No card has this token (in this wallet), or it is a basic card.'),
      e(503, 'The card issuer refused; nothing changed.'),
    ),
  },
  'DELETE /api/v1/cards/:id': {
    202: data(R.cardDeleted, 'The card is ended: premium balances return to the wallet, basic balances are forfeited.'),
    ...fails(
      SIGNED_IN_OR_API,
      PATH,
      IDEMPOTENT,
      e(404, 'The card was not found or is not yours.'),
      e(
        409,
        'The card was already deleted, has payments waiting to settle, or a withdrawal waiting for the card issuer.',
      ),
    ),
  },
  ...Object.fromEntries(
    (
      [
        ['flag', 'flagged', 'The card is already flagged.'],
        ['unflag', 'unflagged', 'The card is not flagged.'],
        ['suspend', 'suspended', 'The card is already suspended.'],
        ['unsuspend', 'unsuspended', 'The card is not suspended.'],
      ] as const
    ).map(([what, done, conflict]) => [
      `POST /api/v1/cards/${what}/:id`,
      {
        200: message(`Staff: the card is ${done} (the reason is kept).`),
        ...fails(STAFF, PATH, BODY, IDEMPOTENT, e(404, 'The card was not found.'), e(409, conflict)),
      },
    ]),
  ),
  'GET /api/v1/wallet/master-balance': {
    200: data(R.masterBalances, 'Money on cards by purpose: available, and ledger (with held payments).'),
    ...fails(STAFF),
  },
  'GET /api/v1/reports/view-cards-transactions': {
    200: ok(R.paged(R.apiCardTransaction), "A page of the card's transactions, newest first."),
    ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The card was not found or is not yours.')),
  },

  // Sandbox issuer
  'POST /api/v1/sandbox/authorizations': {
    201: data(R.sandboxAuthorization, 'Staff, sandbox: a merchant charged the card; approved or declined.'),
    ...fails(STAFF, BODY, IDEMPOTENT, e(404, 'The card was not found.')),
  },
  'POST /api/v1/sandbox/authorizations/:id/reverse': {
    200: message('Staff, sandbox: the held payment is reversed.'),
    ...fails(
      STAFF,
      PATH,
      IDEMPOTENT,
      e(404, 'The authorisation was not found.'),
      e(409, 'The payment can no longer be reversed.'),
    ),
  },
  'POST /api/v1/sandbox/authorizations/:id/settle': {
    200: message('Staff, sandbox: the held payment is settled.'),
    ...fails(
      STAFF,
      PATH,
      IDEMPOTENT,
      e(404, 'The authorisation was not found.'),
      e(409, 'The payment can no longer be settled.'),
    ),
  },

  // Verification
  'POST /api/v1/individuals/kyc/:userId': {
    201: text(
      'Submitted; the account is pending review.',
      'KYC submitted. We will review it and let you know by email.',
    ),
    ...fails(
      SIGNED_IN,
      PATH,
      IDEMPOTENT,
      e(404, 'The id is not the signed-in Individual.'),
      e(409, 'A verification is being reviewed, or the account is already verified.'),
      e(413, 'The form is too large: each file may be at most 5 MB.'),
      e(415, 'Send the form as multipart/form-data.'),
      e(422, 'A field or document is missing or invalid (JPEG, PNG or PDF up to 5 MB).'),
    ),
  },
  'POST /api/v1/company/kyb/:companyId': {
    201: text(
      'Submitted; the company is pending review.',
      'KYB submitted. We will review it and let you know by email.',
    ),
    ...fails(
      SIGNED_IN,
      PATH,
      IDEMPOTENT,
      e(403, 'Only a company admin submits the KYB.'),
      e(404, "The id is not the user's company."),
      e(409, 'A verification is being reviewed, or the company is already verified.'),
      e(413, 'The form is too large: each file may be at most 5 MB.'),
      e(415, 'Send the form as multipart/form-data.'),
      e(422, 'A field or document is missing or invalid (JPEG, PNG or PDF up to 5 MB).'),
    ),
  },
  'GET /api/v1/verification/get-individuals': {
    200: ok(R.paged(R.apiVerificationRow), 'A page of KYC submissions, newest first.'),
    ...fails(STAFF, QUERY),
  },
  'GET /api/v1/verification/get-companies': {
    200: ok(R.paged(R.apiVerificationRow), 'A page of KYB submissions, newest first.'),
    ...fails(STAFF, QUERY),
  },
  'GET /api/v1/verification/details/:id': {
    200: data(R.apiVerificationDetail, 'The submission, its documents and the account’s history.'),
    ...fails(STAFF, PATH, e(404, 'The verification was not found.')),
  },
  'POST /api/v1/verification/decide': {
    200: data(
      R.verificationDecision,
      'Approved (the account becomes Verified) or rejected (Unverified, with the reason).',
    ),
    ...fails(
      STAFF,
      BODY,
      IDEMPOTENT,
      e(404, 'The verification was not found.'),
      e(409, 'The verification was already decided.'),
    ),
  },
  'GET /api/v1/files/:id': {
    200: file('The document, as an attachment (Content-Disposition), for its own account and staff only.'),
    ...fails(SIGNED_IN, PATH, e(404, 'The file was not found or is not yours.')),
  },

  // Customers
  'GET /api/v1/individuals': {
    200: ok(R.paged(R.apiIndividualCustomer), 'A page of Individuals, newest first.'),
    ...fails(STAFF, QUERY),
  },
  'GET /api/v1/companies': {
    200: ok(R.paged(R.apiCompanyCustomer), 'A page of companies, newest first.'),
    ...fails(STAFF, QUERY),
  },
  'DELETE /api/v1/individuals/:id': {
    202: text('Deactivated; every session of the customer ended.', 'User Account deactivated.'),
    ...fails(
      STAFF,
      PATH,
      IDEMPOTENT,
      e(404, 'The customer was not found.'),
      e(409, 'The account is already deactivated.'),
    ),
  },
  'DELETE /api/v1/companies/:id': {
    202: text("Deactivated; every session of the company's users ended.", 'Company Account deactivated.'),
    ...fails(
      STAFF,
      PATH,
      IDEMPOTENT,
      e(404, 'The company was not found.'),
      e(409, 'The company is already deactivated.'),
    ),
  },
  'POST /api/v1/individuals/status': {
    200: text('Reactivated.', 'User Account reactivated.'),
    ...fails(STAFF, BODY, IDEMPOTENT, e(404, 'The customer was not found.'), e(409, 'The account is already active.')),
  },
  'POST /api/v1/company/status': {
    200: text('Reactivated.', 'Company Account reactivated.'),
    ...fails(STAFF, BODY, IDEMPOTENT, e(404, 'The company was not found.'), e(409, 'The company is already active.')),
  },

  // Administrators
  'GET /api/v1/account/admins': {
    200: ok(R.paged(R.apiAdmin), 'A page of administrators, newest first.'),
    ...fails(SUPER_ADMIN, QUERY),
  },
  'POST /api/v1/account/admins': {
    201: data(R.apiAdmin, 'Created; a link to set the password was mailed.'),
    ...fails(SUPER_ADMIN, BODY, IDEMPOTENT, e(422, 'The email has already been taken.')),
  },
  'PUT /api/v1/account/admins/:id': {
    200: data(R.apiAdmin, 'Saved (a new password, email or role ends their sessions).'),
    ...fails(
      SUPER_ADMIN,
      PATH,
      BODY,
      IDEMPOTENT,
      e(403, 'You cannot change your own privileges.'),
      e(404, 'The administrator was not found.'),
      e(409, 'The last Super-Admin cannot be demoted.'),
      e(422, 'The email has already been taken.'),
    ),
  },
  'DELETE /api/v1/account/admins/:id': {
    202: text('Deleted; their sessions ended.', 'Admin deleted.'),
    ...fails(
      SUPER_ADMIN,
      PATH,
      IDEMPOTENT,
      e(403, 'You cannot delete your own account.'),
      e(404, 'The administrator was not found.'),
      e(409, 'The last Super-Admin cannot be removed.'),
    ),
  },

  // Audit
  'GET /api/v1/audit-logs': {
    200: ok(R.paged(R.apiAuditEntry), 'A page of the audit trail, newest first.'),
    ...fails(SUPER_ADMIN, QUERY),
  },

  // Reconciliation
  'GET /api/v1/reconciliation': {
    200: data(
      R.apiReconciliationRun,
      "The last comparison of every card's ledger balance with the card issuer, and the drift no owed operation explains.",
    ),
    ...fails(STAFF),
  },
  'POST /api/v1/reconciliation/run': {
    200: data(R.apiReconciliationRun, 'The comparison, run now.'),
    ...fails(SUPER_ADMIN, IDEMPOTENT),
  },
  'GET /api/v1/reconciliation/operations': {
    200: ok(
      R.paged(R.apiIssuerOperation),
      "A page of the card issuer's operations in one state (failed by default), newest first, with the refund a failure gave.",
    ),
    ...fails(STAFF, QUERY),
  },

  // API integration
  'POST /api/v1/oauth/token': {
    200: ok(
      R.oauthToken,
      'An access token for the client credentials (JSON or form body, or HTTP Basic). Not wrapped in `data`.',
    ),
    ...fails(
      BODY,
      e(
        400,
        '`error` is invalid_request (grant_type missing, a parameter repeated, or the client authenticated both by HTTP Basic and in the body) or unsupported_grant_type.',
      ),
      e(
        401,
        '`error` is invalid_client: no client authentication, or credentials that are unknown, revoked or wrong. Carries `WWW-Authenticate: Basic`.',
      ),
      RATE_LIMITED,
    ),
  },
  'GET /api/v1/third-party/clients': {
    200: ok(
      z.union([
        R.envelope(R.apiClientCredentials).describe("Customers: their company's credentials (never the secret)"),
        R.paged(R.apiThirdParty).describe("Staff: a page of every company's API client"),
      ]),
      "Company admins: the company's credentials. Staff: the list of third parties.",
    ),
    ...fails(
      SIGNED_IN,
      QUERY,
      e(403, 'Only the admin of a verified company manages API credentials.'),
      e(404, "The company is not the user's."),
    ),
  },
  'POST /api/v1/third-party/clients': {
    201: data(R.apiClientCredentials, 'New credentials: the secret is in this answer only.'),
    ...fails(
      SIGNED_IN,
      BODY,
      IDEMPOTENT,
      e(403, 'Only the admin of a verified company manages API credentials.'),
      e(404, "The company is not the user's."),
      e(409, 'Credentials are already active: revoke them first.'),
    ),
  },
  'DELETE /api/v1/third-party/clients/:companyId': {
    202: text('Revoked, with their tokens and the callback.', 'Credentials revoked'),
    ...fails(
      SIGNED_IN,
      PATH,
      IDEMPOTENT,
      e(403, 'Only the admin of a verified company manages API credentials.'),
      e(404, "The company is not the user's."),
      e(409, 'There are no active credentials to revoke.'),
    ),
  },
  'GET /api/v1/third-party/callback-details': {
    200: data(R.apiCallbackDetails, 'The callback URL and its signing secret.'),
    ...fails(
      SIGNED_IN,
      e(403, 'Only the admin of a verified company manages the callback.'),
      e(404, 'The user has no company.'),
    ),
  },
  'POST /api/v1/third-party/callback-request': {
    200: text('The callback URL is saved.', 'Callback Url set successfully'),
    ...fails(
      SIGNED_IN,
      BODY,
      IDEMPOTENT,
      e(403, 'Only the admin of a verified company manages the callback.'),
      e(404, 'The user has no company.'),
      e(409, 'Generate API credentials first.'),
      e(422, 'The callback URL is not allowed (`error.callback_url`).'),
    ),
  },
  'PUT /api/v1/third-party/callback-status': {
    200: text('The callback is activated or deactivated.', 'Callback Url activated successfully'),
    ...fails(
      SIGNED_IN,
      BODY,
      IDEMPOTENT,
      e(403, 'Only the admin of a verified company manages the callback.'),
      e(404, 'No callback URL is set.'),
    ),
  },
  'DELETE /api/v1/third-party/callback-revoke': {
    202: text('The callback is revoked.', 'Callback Url revoked successfully'),
    ...fails(
      SIGNED_IN,
      IDEMPOTENT,
      e(403, 'Only the admin of a verified company manages the callback.'),
      e(404, 'No callback URL is set.'),
    ),
  },
  'GET /api/v1/third-party/webhook-deliveries': {
    200: ok(R.paged(R.apiWebhookEvent), 'A page of webhook events with their delivery attempts, newest first.'),
    ...fails(SIGNED_IN, QUERY, e(403, 'Only the company admin (or staff) sees webhook deliveries.')),
  },

  // Notifications
  'GET /api/v1/notifications': {
    200: ok(
      R.notificationPage,
      "A page of the caller's notifications, newest first (unread=true: only unread ones), with the unread count.",
    ),
    ...fails(SIGNED_IN, QUERY),
  },
  'POST /api/v1/notifications/read': {
    200: data(
      R.notificationsMarked,
      "Marked read: the caller's notifications with these ids (ids of anyone else's are ignored), or all of them when ids is left out.",
    ),
    ...fails(SIGNED_IN, BODY, IDEMPOTENT),
  },
  'GET /api/v1/account/notification-settings': {
    200: data(
      z.array(R.apiNotificationSetting),
      'Each notification type the caller can receive, with whether it is mailed (defaults where never chosen).',
    ),
    ...fails(SIGNED_IN),
  },
  'PUT /api/v1/account/notification-settings': {
    200: data(z.array(R.apiNotificationSetting), 'Saved; the settings as they now are.'),
    ...fails(
      SIGNED_IN,
      BODY,
      IDEMPOTENT,
      e(422, 'A type is unknown (`error["mail.<type>"]`), or a security mail was turned off (they cannot be).'),
    ),
  },
};

/** The registry key of a route: its method and URL as registered (HEAD answers as GET). */
export const routeKey = (method: string, url: string) => `${method === 'HEAD' ? 'GET' : method} ${url}`;
