import { z } from 'zod';
import { pageQuery } from './fields';
import type {
  apiCallbackDetails,
  apiClientCredentials,
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

export type ApiThirdParty = z.infer<typeof apiThirdParty>;

export type ApiWebhookEvent = z.infer<typeof apiWebhookEvent>;
