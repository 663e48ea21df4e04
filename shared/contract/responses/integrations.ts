import { z } from 'zod';
import { freeForm, id, timestamp } from './blocks';

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

export const apiDecisionEndpoint = z
  .strictObject({
    url: z.string(),
    timeout_ms: z.number().int().describe('How long the platform waits for an answer (100 to 2000)'),
    on_timeout: z
      .enum(['approve', 'decline'])
      .describe('What applies when the endpoint does not answer in time, fails, or answers something else'),
    signing_secret: z
      .string()
      .nullable()
      .describe("Verifies each request's webhook-signature header; shown to the company admin, null for API tokens"),
    last_failure: z.string().nullable().describe('Why the last call that fell back to on_timeout did'),
    last_failure_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'ApiDecisionEndpoint',
    description: "A company's authorisation-decision endpoint: asked in real time about each of its cards' payments.",
  });

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
    decision_endpoint: z
      .strictObject({
        url: z.string(),
        timeout_ms: z.number().int(),
        on_timeout: z.enum(['approve', 'decline']),
        last_failure: z.string().nullable(),
        last_failure_at: timestamp.nullable(),
      })
      .nullable()
      .describe("The company's authorisation-decision endpoint (read-only for staff; no secret), or null"),
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
