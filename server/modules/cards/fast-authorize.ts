import { getTableColumns } from 'drizzle-orm';
import { APPROVAL_INTERVALS, SPENDING_CONTROLS } from '@shared/contract';
import { categoryOf } from '@shared/merchant-categories';
import type { AppContext } from '../../context';
import { cardTransactions } from '../../db/schema';
import { randomToken } from '../../lib/crypto';
import type { AuthorizationDecision, AuthorizationRequest } from '../../issuer/port';
import { intervalStart } from './controls/decline';
import { prohibitedMerchant, windowStart } from './spending';
import type { CardTx } from './steps';

const APPROVE = 'select cw_card_authorize($1::jsonb) as r';

type Json = Record<string, unknown>;

const COLUMNS = Object.entries(getTableColumns(cardTransactions));

/** A card_transactions row as to_jsonb wrote it, as drizzle reads it. */
function rowFromJson(json: Json): CardTx {
  const row: Json = {};
  for (const [key, column] of COLUMNS) {
    const v = json[column.name] ?? null;
    row[key] = column.dataType === 'date' && v != null ? new Date(v as string) : v;
  }
  return row as unknown as CardTx;
}

/**
 * The sandbox issuer's plain approval in one statement (cw_card_authorize, server/db/sql/authorizations.sql): the
 * platform's decision, its posting, its row and webhook, and the sandbox's own records, in one transaction. The
 * checks that need no database are decided here and passed in: the MCC's category, the prohibited merchants, where
 * each interval starts by this instance's clock. Answers null, having written nothing, for whatever is not a plain
 * approval (a decline, the company's decision endpoint, a card the issuer refuses): the caller then takes the whole
 * path (authorize.ts), which decides again.
 */
export async function approveInOne(
  ctx: AppContext,
  token: string,
  req: AuthorizationRequest,
  ref: string,
  payload: Json,
): Promise<AuthorizationDecision | null> {
  const now = ctx.now();
  const id = crypto.randomUUID();
  const p = {
    ref,
    id,
    token,
    amount: req.amount,
    currency: req.currency,
    merchant: req.merchant,
    mcc: req.mcc,
    country: req.country,
    category: categoryOf(req.mcc ?? null),
    prohibited: prohibitedMerchant(req.merchant),
    partial: !!req.partialAllowed,
    now: now.toISOString(),
    velocity_since: Object.fromEntries(APPROVAL_INTERVALS.map((i) => [i, intervalStart(i, now).toISOString()])),
    spend_since: Object.fromEntries(SPENDING_CONTROLS.map((c) => [c, windowStart(c, now).toISOString()])),
    message_id: `msg_${randomToken(18)}`,
    payload,
  };
  const [out] = await ctx.database.query<{ r: { approved_amount: number; row: Json } | null }>(
    'cw_card_authorize',
    APPROVE,
    [JSON.stringify(p)],
  );
  const r = out?.r;
  if (!r) return null;
  const amount = Number(r.approved_amount);
  return {
    approved: true,
    approvedAmount: amount,
    declineCode: null,
    declineReason: null,
    transactionId: id,
    availableDelta: -amount,
    authStatus: 'approved',
    authAmount: amount,
    row: rowFromJson(r.row),
  };
}
