import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@shared/api/client';
import { ApiError } from '@shared/api/errors';
import { goToError, storeMessage } from './messages';

/**
 * Submits a registration: 201 → the success screen with its stored message; any failure →
 * the error screen with the server's first field message (error.email[0] first) or a fallback.
 */
export function useRegistration(path: string, successMessage: string, fallbackError: string) {
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);
  async function register(body: Record<string, unknown>) {
    setLoading(true);
    try {
      await api('POST', path, { body, silent: true });
      storeMessage(successMessage);
      navigate('/onboarding/success');
    } catch (e) {
      const msg =
        e instanceof ApiError ? (e.fieldError('email') ?? (e.statusCode < 500 ? e.display : undefined)) : undefined;
      goToError(navigate, msg ?? fallbackError);
    } finally {
      setLoading(false);
    }
  }
  return { loading, register };
}
