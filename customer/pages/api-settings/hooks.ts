import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { apiData } from '@shared/api/client';
import type { ApiCallbackDetails, ApiClientCredentials, ApiDecisionEndpoint } from '@shared/contract';
import { webhookKeys } from '@shared/ui/integrations/WebhookDeliveries';
import { useSubmit } from '@shared/ui/useSubmit';

export const apiKeys = {
  all: ['api-settings'] as const,
  credentials: (companyId: string) => ['api-settings', 'credentials', companyId] as const,
  callback: ['api-settings', 'callback'] as const,
  decision: ['api-settings', 'decision'] as const,
};

/**
 * Every call here toasts its failure with the server's message (the API client does it for any
 * answer that is not 2xx, and for a server that cannot be reached); nothing fails silently.
 */
export function useCredentials(companyId: string) {
  return useQuery({
    queryKey: apiKeys.credentials(companyId),
    queryFn: () => apiData<ApiClientCredentials>('GET', '/third-party/clients', { query: { identifier: companyId } }),
  });
}

export function useCallbackDetails(enabled: boolean) {
  return useQuery({
    queryKey: apiKeys.callback,
    queryFn: () => apiData<ApiCallbackDetails>('GET', '/third-party/callback-details'),
    enabled,
  });
}

/** The authorisation-decision endpoint, or null when none is set. */
export function useDecisionEndpoint() {
  return useQuery({
    queryKey: apiKeys.decision,
    queryFn: () => apiData<ApiDecisionEndpoint | null>('GET', '/third-party/authorization-decision'),
  });
}

/**
 * One API Settings action: one Idempotency-Key per intent (useSubmit), the server's answer as a
 * success toast (or a fixed text), then whatever has to be read again.
 */
export function useAction() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { busy, submit } = useSubmit();
  const run = useCallback(
    async <T>(
      call: (key: string) => Promise<T>,
      success: (data: T) => string | null,
      reload: ReadonlyArray<readonly unknown[]> = [],
    ) => {
      const r = await submit(call);
      if (!r.ok) return r;
      const text = success(r.data);
      if (text) message.success(text, 2);
      await Promise.all(reload.map((queryKey) => qc.invalidateQueries({ queryKey })));
      return r;
    },
    [message, qc, submit],
  );
  return { busy, run, qc };
}

export const reloadAll = [apiKeys.all, webhookKeys.all] as const;

/** A `{ data: string }` answer as the toast text, or the spec's fixed text when there is none. */
export const said = (fallback: string) => (data: unknown) => (typeof data === 'string' && data ? data : fallback);
