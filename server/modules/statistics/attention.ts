import { sql } from 'drizzle-orm';
import { type Permission, TOPUP_APPROVABLE_FROM, type Role, can } from '@shared/contract';
import type { z } from 'zod';
import type * as R from '@shared/contract/responses';
import type { DbOrTx } from '../../db/client';

type Attention = z.infer<typeof R.attention>;
type Count = keyof Attention;

/** What a role needs to see each count: what opens its list (OPERATION_PERMISSIONS, admin/resources.tsx). */
const SEEN_WITH: Record<Count, Permission> = {
  verifications_individuals: 'customers.read',
  verifications_companies: 'customers.read',
  topups_to_decide: 'customers.read',
  chain_deposits_unassigned: 'reports.read',
  flagged_cards: 'customers.read',
  reconciliation_drift: 'reports.read',
  // the Approvals list is every staff member's; approving is checked per action
  approvals_pending: 'customers.read',
  disputes_to_send: 'customers.read',
};

/**
 * One statement, each count cheap at any size: top-ups from their kept totals (migration 0031); the rest over
 * partial or leading-column indexes of the few rows that wait (pending verifications, unassigned deposits, flagged
 * cards, disputes not yet sent), and the drift of the last reconciliation run alone. The flagged condition is written out, not a
 * parameter, so that the partial index serves it.
 */
const COUNTS = sql`
  select
    (select count(*) from verifications where account_type = 'individual' and state = 'pending')::int as verifications_individuals,
    (select count(*) from verifications where account_type = 'company' and state = 'pending')::int as verifications_companies,
    (select coalesce(sum(rows), 0) from topup_totals
      where (method, state) in (('Tron', ${TOPUP_APPROVABLE_FROM.Tron}), ('Momo', ${TOPUP_APPROVABLE_FROM.Momo})))::int as topups_to_decide,
    (select count(*) from chain_deposits where status = 'Unassigned')::int as chain_deposits_unassigned,
    (select count(*) from cards where flagged)::int as flagged_cards,
    coalesce((select jsonb_array_length(drift) from reconciliation_runs order by run_at desc limit 1), 0)::int
      as reconciliation_drift,
    (select count(*) from approvals where state = 'pending' and expires_at > now())::int as approvals_pending,
    (select count(*) from card_disputes where state = 'submitted')::int as disputes_to_send`;

/** The counts of what waits for staff, those the role may see. */
export async function attentionFor(db: DbOrTx, role: Role): Promise<Attention> {
  const res = await db.execute(COUNTS);
  const [row] = (res as unknown as { rows: Array<Record<Count, number>> }).rows;
  const seen: Attention = {};
  for (const key of Object.keys(SEEN_WITH) as Count[]) if (can(role, SEEN_WITH[key])) seen[key] = Number(row![key]);
  return seen;
}
