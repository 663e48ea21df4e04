import { z } from 'zod';
import { pageQuery } from './fields';
import type {
  apiCallbackDetails,
  apiClientCredentials,
  apiDecisionEndpoint,
  apiThirdParty,
  apiWebhookEvent,
} from './responses/integrations';

export const createClientBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  redirect_uri: z.string().trim().max(500).nullish(),
  identifier: z.string({ error: 'Company is required' }).uuid('Company is required'),
});

export const clientQuery = pageQuery.and(z.object({ identifier: z.string().uuid().optional() }));

export const callbackRequestBody = z.object({
  callback_url: z
    .string({ error: 'Callback URL is required' })
    .trim()
    .min(1, 'Callback URL is required')
    .max(500, 'The callback URL is too long'),
  active: z.boolean({ error: 'Active must be true or false' }).default(true),
});

export const callbackStatusBody = z.object({ activate: z.boolean({ error: 'Activate must be true or false' }) });

/** What a company's endpoint answering for an authorisation may take (issue 32): 100 ms to 2 s. */
export const DECISION_TIMEOUT_MS = { min: 100, max: 2000 } as const;
const TIMEOUT_MESSAGE = `Timeout must be a whole number of milliseconds from ${DECISION_TIMEOUT_MS.min} to ${DECISION_TIMEOUT_MS.max}`;

export const decisionEndpointBody = z.object({
  url: z.string({ error: 'URL is required' }).trim().min(1, 'URL is required').max(500, 'The URL is too long'),
  timeout_ms: z
    .number({ error: TIMEOUT_MESSAGE })
    .int(TIMEOUT_MESSAGE)
    .min(DECISION_TIMEOUT_MS.min, TIMEOUT_MESSAGE)
    .max(DECISION_TIMEOUT_MS.max, TIMEOUT_MESSAGE),
  on_timeout: z.enum(['approve', 'decline'], { error: 'On timeout must be approve or decline' }),
});

export const tokenBody = z.object({
  grant_type: z.string().optional(),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(500).optional(),
});

export const deliveriesQuery = pageQuery.and(
  z.object({
    company_id: z.string().uuid().optional(),
    state: z.enum(['pending', 'delivered', 'failed', 'skipped']).optional(),
  }),
);

export type ApiClientCredentials = z.infer<typeof apiClientCredentials>;

export type ApiCallbackDetails = z.infer<typeof apiCallbackDetails>;

export type ApiDecisionEndpoint = z.infer<typeof apiDecisionEndpoint>;

export type ApiThirdParty = z.infer<typeof apiThirdParty>;

export type ApiWebhookEvent = z.infer<typeof apiWebhookEvent>;
