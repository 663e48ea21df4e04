import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns';

export const companies = pgTable(
  'companies',
  {
    id: id(),
    companyName: text('company_name').notNull(),
    companyWebsite: text('company_website').notNull(),
    companyEmail: text('company_email').notNull(),
    companyPhone: text('company_phone').notNull(),
    /** verification state: Unverified → pending → Verified */
    state: text('state').notNull().default('Unverified'),
    deactivatedAt: ts('deactivated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('companies_created_idx').on(t.createdAt, t.id)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phoneNumber: text('phone_number'),
    role: text('role').notNull(),
    companyId: uuid('company_id').references(() => companies.id),
    /** verification state of an Individual; company users follow their company */
    state: text('state').notNull().default('Unverified'),
    emailVerifiedAt: ts('email_verified_at'),
    deactivatedAt: ts('deactivated_at'),
    /** AES-GCM sealed base32 TOTP key; null until 2FA is set up */
    totpSecret: text('totp_secret'),
    /** the sealed key shown at the first login, kept until a code confirms it so a scanned QR stays good */
    pendingTotpSecret: text('pending_totp_secret'),
    /** when that key was made: after a day a first login shows a new one */
    pendingTotpCreatedAt: ts('pending_totp_created_at'),
    /** the last TOTP time step accepted, so a code is never accepted twice */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    passwordChangedAt: ts('password_changed_at'),
    /** the last completed sign-in (a session made), for the staff access review */
    lastLoginAt: ts('last_login_at'),
    invitedBy: uuid('invited_by'),
    deletedAt: ts('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_live_unique').on(t.email).where(sql`deleted_at is null`),
    index('users_company_idx').on(t.companyId),
    index('users_role_created_idx').on(t.role, t.createdAt),
  ],
);

/**
 * The customer lists' totals (migration 0053): Individuals not deleted ('individual') and companies ('company') by
 * verification state and deactivation, kept by triggers in per-backend slots as card_count is.
 */
export const customerCount = pgTable(
  'customer_count',
  {
    kind: text('kind').notNull(), // 'individual' | 'company'
    state: text('state').notNull(),
    /** deactivated_at is set */
    deactivated: boolean('deactivated').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.state, t.deactivated, t.slot] })],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** The short-lived step between a correct password and a correct TOTP code. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind').notNull(), // 'setup' | 'verify'
    pendingTotpSecret: text('pending_totp_secret'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('login_challenges_token_unique').on(t.tokenHash)],
);

/** Single-use tokens sent by mail: email verification, password reset, invitations. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_tokens_token_unique').on(t.tokenHash),
    index('email_tokens_user_idx').on(t.userId, t.purpose),
  ],
);

export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  // window_start: the hourly prune reads the old end of the table only.
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_window_idx').on(t.windowStart)],
);

export const helpdeskMessages = pgTable('helpdesk_messages', {
  id: id(),
  userId: uuid('user_id').references(() => users.id),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  deliveredAt: ts('delivered_at'),
  createdAt: createdAt(),
});

/**
 * A user's searched text in a narrow row (migration 0056, kept by triggers), as card_search is a card's. haystack: the
 * full name and the email, lower-cased, a newline between; listed: an Individual not deleted.
 */
export const userSearch = pgTable('user_search', {
  userId: uuid('user_id').primaryKey(),
  listed: boolean('listed').notNull(),
  haystack: text('haystack').notNull(),
});
