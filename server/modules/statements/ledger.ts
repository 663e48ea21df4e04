import type { StatementSource } from '@shared/contract';
import type { AppContext } from '../../context';
import { PLATFORM } from '../ledger/accounts';
import type { Movement } from './match';

interface Row {
  id: string;
  reference: string;
  kind: string;
  amount: string | number;
  at: Date | string;
  hash: string | null;
  op: string | null;
}

/**
 * What the ledger holds for a source, as movements signed from the platform's side (positive: money
 * in). The chain's and mobile money's are the entries of their platform accounts (a deposit debits
 * the account that stands for the outside world); the issuer's are the money between a card and the
 * platform (the card's account holds what the issuer holds): its initial load, later loads, debt repaid from
 * the wallet, withdrawals, maintenance fees, a balance returned or forfeited when the card ends; and the
 * settlements posted to the issuer's account.
 */
const OUTSIDE = `
  select t.id, t.reference, t.kind, -e.amount as amount, e.created_at as at,
         t.meta->>'transaction_hash' as hash, t.meta->>'issuer_operation' as op
    from ledger_entries e join ledger_transfers t on t.id = e.transfer_id
   where e.account_id = $1 and e.created_at >= $2 and e.created_at < $3`;

const CARD_MONEY = `
  select t.id, t.reference, t.kind, -e.amount as amount, t.created_at as at,
         null as hash, t.meta->>'issuer_operation' as op
    from ledger_transfers t
    join ledger_entries e on e.transfer_id = t.id
    join ledger_accounts a on a.id = e.account_id and a.kind = 'card'
   where t.kind in ('issuance', 'topup', 'withdraw', 'refund', 'forfeit', 'maintenance', 'card_debt')
     and t.created_at >= $1 and t.created_at < $2`;

const ACCOUNT: Record<Exclude<StatementSource, 'issuer'>, string> = {
  chain: PLATFORM.tronDeposits,
  momo: PLATFORM.momoDeposits,
};

function movement(r: Row): Movement {
  const keys = [r.reference, r.hash, r.op].filter((k): k is string => !!k).map((k) => k.toUpperCase());
  // A clearing's reference is CLR-<the issuer's id>: the issuer's report names its own id.
  const own = /^[A-Z]{3}-(.{4,})$/.exec(r.reference.toUpperCase());
  if (own && r.kind === 'card_spend') keys.push(own[1]!);
  return {
    transferId: r.id,
    reference: r.reference,
    kind: r.kind,
    amount: Number(r.amount),
    at: new Date(r.at).getTime(),
    keys,
  };
}

export async function ledgerMovements(
  ctx: AppContext,
  source: StatementSource,
  from: Date,
  to: Date,
): Promise<Movement[]> {
  const q = (name: string, text: string, params: unknown[]) => ctx.database.query<Row>(name, text, params);
  const rows =
    source === 'issuer'
      ? [
          ...(await q('statement_issuer_settlements', OUTSIDE, [
            PLATFORM.cardIssuer,
            from.toISOString(),
            to.toISOString(),
          ])),
          ...(await q('statement_issuer_cards', CARD_MONEY, [from.toISOString(), to.toISOString()])),
        ]
      : await q(`statement_${source}`, OUTSIDE, [ACCOUNT[source], from.toISOString(), to.toISOString()]);
  return rows.map(movement);
}
