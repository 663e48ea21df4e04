import { z } from 'zod';
import { pageQuery } from './fields';

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

export interface ApiClientCredentials {
  client_id: string | null;
  /** only in the answer that created them; afterwards null */
  client_secret: string | null;
  revoked: boolean;
  name?: string;
  created_at?: string;
  last_used_at?: string | null;
}

export interface ApiCallbackDetails {
  callback_url: string | null;
  active: boolean;
  signing_secret: string | null;
  disabled_reason: string | null;
}

export interface ApiThirdParty {
  id: string;
  name: string;
  client_id: string;
  company_id: string;
  company_name: string;
  state: 'Active' | 'Revoked';
  last_used_at: string | null;
  created_at: string;
  updated_at: string;
  webhook: {
    url: string | null;
    active: boolean;
    health: 'healthy' | 'failing' | 'disabled' | 'none';
    last_status: number | null;
    failed_events: number;
    pending_events: number;
  };
}

export interface ApiWebhookEvent {
  id: string;
  message_id: string;
  type: string;
  state: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  payload: Record<string, unknown>;
  deliveries: Array<{
    attempt: number;
    status_code: number | null;
    error: string | null;
    duration_ms: number | null;
    next_retry_at: string | null;
    created_at: string;
  }>;
}
