import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns';
import { companies, users } from './identity';

/** A company's API credentials: the secret is shown once and stored only as its SHA-256. */
export const apiClients = pgTable(
  'api_clients',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    clientId: text('client_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    redirectUri: text('redirect_uri'),
    /** the Company-Admin who generated them: API calls act with their company's rights */
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('api_clients_client_id_unique').on(t.clientId), index('api_clients_company_idx').on(t.companyId)],
);

/** Short-lived OAuth access tokens (client credentials), stored hashed. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => apiClients.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_tokens_hash_unique').on(t.tokenHash)],
);

/** Where a company receives card-transaction webhooks, and the secret that signs them. */
export const callbackEndpoints = pgTable(
  'callback_endpoints',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id),
    url: text('url').notNull(),
    active: boolean('active').notNull().default(true),
    /** whsec_… sealed under ENCRYPTION_KEY (the HMAC needs the secret itself) */
    signingSecret: text('signing_secret').notNull(),
    disabledReason: text('disabled_reason'),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('callback_endpoints_company_idx').on(t.companyId)],
);

/**
 * The outbox: an event is written in the same transaction as what it reports, then delivered
 * at least once, retried on the Standard Webhooks schedule with the same webhook-id.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id(),
    /** the webhook-id header: msg_… */
    messageId: text('message_id').notNull(),
    companyId: uuid('company_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: text('state').notNull().default('pending'), // 'pending' | 'delivered' | 'failed' | 'skipped'
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    deliveredAt: ts('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_events_message_unique').on(t.messageId),
    index('webhook_events_due_idx').on(t.state, t.nextAttemptAt),
    index('webhook_events_company_idx').on(t.companyId, t.createdAt),
    // the delivery log of every company, newest first (migration 0054)
    index('webhook_events_created_idx').on(t.createdAt, t.id),
  ],
);

/** The delivery log's totals by event state (migration 0054), kept by triggers in per-backend slots as card_count is. */
export const webhookEventCount = pgTable(
  'webhook_event_count',
  {
    state: text('state').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.state, t.slot] })],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: uuid('endpoint_id'),
    url: text('url').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    nextRetryAt: ts('next_retry_at'),
    createdAt: createdAt(),
    meta: jsonb('meta').$type<Record<string, unknown>>(),
  },
  (t) => [index('webhook_deliveries_event_idx').on(t.eventId, t.createdAt)],
);

/**
 * Where a company decides its cards' authorisations in real time (issue 32): one per company, keyed by the company
 * (a card's wallet id), so the authorisation path finds it with one primary-key read. Its own signing secret, as
 * each callback has its own. The last failed call is kept for the company to see.
 */
export const decisionEndpoints = pgTable(
  'decision_endpoints',
  {
    companyId: uuid('company_id')
      .primaryKey()
      .references(() => companies.id),
    url: text('url').notNull(),
    timeoutMs: integer('timeout_ms').notNull(),
    onTimeout: text('on_timeout').notNull(), // 'approve' | 'decline'
    /** whsec_… sealed under ENCRYPTION_KEY */
    signingSecret: text('signing_secret').notNull(),
    lastFailure: text('last_failure'),
    lastFailureAt: ts('last_failure_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('decision_endpoints_timeout_ms_range', sql`${t.timeoutMs} between 100 and 2000`),
    check('decision_endpoints_on_timeout_known', sql`${t.onTimeout} in ('approve', 'decline')`),
  ],
);
