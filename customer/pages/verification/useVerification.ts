import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { App } from 'antd';
import { useNavigate } from 'react-router';
import { refreshProfile } from '@shared/api/auth';
import { api, apiData } from '@shared/api/client';
import { ApiError } from '@shared/api/errors';
import { updateIdentity } from '@shared/api/session';
import type { ProfilePayload } from '@shared/contract';
import { useSession } from '@shared/ui/useSession';
import { useSubmit } from '@shared/ui/useSubmit';

const PROFILE_KEY = ['profile'] as const;

/**
 * The signed-in customer's verification: the account state (from the session, kept fresh) and
 * the latest KYC/KYB submission (state, and the reason when it was rejected).
 */
export function useVerificationStatus(enabled = true) {
  const session = useSession();
  const query = useQuery({
    queryKey: [...PROFILE_KEY, session?.user.id],
    queryFn: async () => {
      const p = await apiData<ProfilePayload>('GET', '/individuals/profile', { silent: true });
      updateIdentity(p.user, p.company);
      return p;
    },
    enabled: enabled && !!session,
  });
  return { state: session?.user.state, latest: query.data?.verification ?? null, query };
}

const ERROR_PREFIX = 'An error occurred. Please try again. - ';

/** What the server (or the network) said, for the toast. */
export function serverMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message || e.display;
  if (e instanceof Error && e.message) return e.message;
  return 'Something went wrong. Please try again.';
}

/**
 * Sends a KYC/KYB multipart form. 201: the server's message, the profile reloaded, back to the
 * dashboard. Anything else: a toast with the server's message and the field errors on their fields.
 */
export function useVerificationSubmit(path: string, form: FormInstance, fields: readonly string[]) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { busy, submit } = useSubmit();

  async function send(body: FormData) {
    const r = await submit((key) => api<{ data: string }>('POST', path, { body, idempotencyKey: key, silent: true }));
    if (r.ok) {
      message.success(r.data?.data || 'Submitted.', 2);
      try {
        await refreshProfile();
      } catch (e) {
        message.error(`${ERROR_PREFIX}${serverMessage(e)}`, 4);
      }
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
      navigate('/portal');
      return;
    }
    const e = r.error;
    // Said once: under the fields it names, otherwise as the spec's 'Error: …' toast.
    const known = new Set(fields);
    const onFields =
      e instanceof ApiError && e.errors
        ? Object.entries(e.errors)
            .filter(([name]) => known.has(name))
            .map(([name, errors]) => ({ name, errors }))
        : [];
    if (onFields[0]) {
      form.setFields(onFields);
      form.scrollToField(onFields[0].name, { block: 'center', behavior: 'smooth' });
    } else message.error(`${ERROR_PREFIX}${serverMessage(e)}`, 4);
    // Already pending or verified elsewhere (another tab, a teammate): show where it stands.
    if (e instanceof ApiError && e.statusCode === 409) {
      await refreshProfile().catch(() => undefined);
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    }
  }

  return { busy, send };
}

/** A form value for the multipart body: files as they are, the rest as text. */
export function appendAll(body: FormData, values: Record<string, string | boolean | File | undefined | null>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null) continue;
    if (v instanceof File) body.append(k, v, v.name);
    else body.append(k, String(v));
  }
  return body;
}
