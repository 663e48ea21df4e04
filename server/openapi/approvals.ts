import { z } from 'zod';
import * as R from '@shared/contract/responses';
import { data } from './responses';

const HELD =
  'Staff, when an approval policy covers this request: it is held back, nothing is done, and a second person approves it (POST /approvals/{id}/approve performs it once) or rejects it.';

/**
 * The 202 of a route under a maker-checker policy (issue 33): `{ approval_id, state: 'pending' }`,
 * or, when the route already answers 202, either answer.
 */
export function heldOr<T extends z.ZodType>(own?: T) {
  if (!own) return data(R.approvalPending, HELD);
  return z.union([own, R.envelope(R.approvalPending)]).describe(`${own.description ?? ''} Or: ${HELD}`);
}
