import { useCallback, useRef, useState } from 'react';
import { newIdempotencyKey } from '../api/client';
import { ApiError } from '../api/errors';

export type SubmitResult<T> = { ok: true; data: T } | { ok: false; error: unknown };

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
      const answered = error instanceof ApiError && error.statusCode >= 400 && error.statusCode < 500;
      if (answered) key.current = newIdempotencyKey();
      return { ok: false, error };
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }, []);

  return { busy, submit };
}
