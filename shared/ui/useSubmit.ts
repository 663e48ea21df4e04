import { useCallback, useRef, useState } from 'react';
import { newIdempotencyKey } from '../api/client';
import { ApiError } from '../api/errors';

export type SubmitResult<T> = { ok: true; data: T } | { ok: false; error: unknown };

/** The server gave its answer (a 4xx): the intent is spent, a new try is a new intent. */
const answered = (error: unknown) => error instanceof ApiError && error.statusCode >= 400 && error.statusCode < 500;

/**
 * One Idempotency-Key per intent: a double click while a submission is in flight is ignored, a
 * submission retried after a network failure or a 5xx reuses the key (so nothing happens twice),
 * and a new key is drawn once the server has given its answer (success or a 4xx).
 */
export function useSubmit() {
  const key = useRef(newIdempotencyKey());
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);

  const submit = useCallback(async <T>(fn: (idempotencyKey: string) => Promise<T>): Promise<SubmitResult<T>> => {
    if (inFlight.current) return { ok: false, error: new Error('A submission is already in progress') };
    inFlight.current = true;
    setBusy(true);
    try {
      const data = await fn(key.current);
      key.current = newIdempotencyKey();
      return { ok: true, data };
    } catch (error) {
      if (answered(error)) key.current = newIdempotencyKey();
      return { ok: false, error };
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, []);

  return { busy, submit };
}

/**
 * The same rule for hooks that take the key up front, as Refine's useForm takes its meta: the key is
 * state, so the form submits with the current one; `settle` draws the next once the server has
 * answered (no error, or a 4xx), and keeps it after a network failure or a 5xx.
 */
export function useIntentKey() {
  const [key, setKey] = useState(newIdempotencyKey);
  const settle = useCallback((error?: unknown) => {
    if (error === undefined || answered(error)) setKey(newIdempotencyKey());
  }, []);
  return { key, settle };
}
