import { getTableColumns } from 'drizzle-orm';
import { APPROVAL_INTERVALS, SPENDING_CONTROLS } from '@shared/contract';
import { categoryOf } from '@shared/merchant-categories';
import type { AppContext } from '../../context';
import { type AuditRow, cardTransactions } from '../../db/schema';
import { randomToken } from '../../lib/crypto';
import {
  type AuthorizationDecision,
  type AuthorizationRequest,
  type CompanyAnswer,
  approvedDecision,
} from '../../issuer/port';
import type { CardRef } from '../../issuer/sandbox';
import { type AskedCard, type DecisionEndpoint, askCompany } from './company-decision';
import { intervalStart } from './controls/decline';
import { prohibitedMerchant, windowStart } from './spending';
import type { CardTx } from './steps';
import { metrics } from '../../lib/metrics';

const APPROVE = 'select cw_card_authorize($1::jsonb) as r';

type Json = Record<string, unknown>;

/** What cw_card_authorize answers: an approval, or what the company must be asked (nothing written); null otherwise. */
type Answer =
  | { approved_amount: number; row: Json }
  | {
      ask: {
        amount: number;
        company_id: string;
        url: string;
        timeout_ms: number;
        on_timeout: string;
        signing_secret: string;
      };
      card: { id: string; masked_number: string; last4: string; purpose: string; nickname: string };
    }
  | null;

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

/** The audit row as the statement inserts it (its columns' names). */
const auditJson = (a: AuditRow): Json => ({
  id: a.id,
  actor_id: a.actorId,
  actor_email: a.actorEmail,
  actor_role: a.actorRole,
  action: a.action,
  object_type: a.objectType,
  object_id: a.objectId ?? null,
  details: a.details ?? {},
  status: a.status,
  ip: a.ip ?? null,
  request_id: a.requestId ?? null,
});

/** Declines and the company's own answers go the whole way and are counted there (authorizations.ts). */
const counted = (d: AuthorizationDecision, asked: number) => {
  metrics.cardAuthorization(d, asked);
  return d;
};

const approval = (r: { approved_amount: number; row: Json }, id: string): AuthorizationDecision => ({
  ...approvedDecision(id, Number(r.approved_amount)),
  row: rowFromJson(r.row),
});

/**
 * The sandbox issuer's approval of a payment in one statement (cw_card_authorize, server/db/sql/authorizations.sql):
 * the platform's decision, its posting, its row and webhook, and the sandbox's own records, in one transaction. The
 * checks that need no database are decided here and passed in: the MCC's category, the prohibited merchants, where
 * each interval starts by this instance's clock. When the card's company decides, a first call checks (writing
 * nothing), the company is asked with no lock held, and a second call checks the card again and holds what it
 * approved. Answers null (nothing written) for whatever is not an approval, or, once the company has answered, its
 * answer: the caller then takes the whole path (authorize.ts), which decides again with that answer. The card is the
 * issuer's token, or the platform's id within the caller's reach (out of reach: null, for the caller's own 404);
 * `audit`, the staff's audit row of the request, is written with the approval.
 */
export async function approveInOne(
  ctx: AppContext,
  target: CardRef,
  req: AuthorizationRequest,
  ref: string,
  payload: Json,
  audit: AuditRow | null = null,
): Promise<AuthorizationDecision | { company: CompanyAnswer } | null> {
  const started = performance.now();
  // the real clock, not the app's (tests move that): how long the decision took
  const receivedAt = new Date().toISOString();
  const id = crypto.randomUUID();
  const call = async (extra: Json = {}) => {
    const now = ctx.now();
    const p = {
      ref,
      id,
      ...(typeof target === 'string' ? { token: target } : { card_id: target.cardId, wallet_id: target.walletId }),
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
      received_at: receivedAt,
      message_id: `msg_${randomToken(18)}`,
      payload,
      audit: audit && auditJson(audit),
      ...extra,
    };
    const [out] = await ctx.database.query<{ r: Answer }>('cw_card_authorize', APPROVE, [JSON.stringify(p)]);
    return out?.r ?? null;
  };
  const first = await call();
  if (!first) return null;
  if ('row' in first) return counted(approval(first, id), req.amount);
  const { ask, card } = first;
  const endpoint: DecisionEndpoint = {
    companyId: ask.company_id,
    url: ask.url,
    timeoutMs: ask.timeout_ms,
    onTimeout: ask.on_timeout === 'approve' ? 'approve' : 'decline',
    signingSecret: ask.signing_secret,
  };
  const asked: AskedCard = {
    id: card.id,
    maskedNumber: card.masked_number,
    last4: card.last4,
    purpose: card.purpose,
    nickname: card.nickname,
  };
  const amount = Number(ask.amount);
  const payment = { amount, currency: req.currency, merchant: req.merchant, mcc: req.mcc, country: req.country };
  const company = await askCompany(ctx, endpoint, asked, payment, id);
  if (company.approved) {
    const approved = Math.min(amount, company.amount && company.amount > 0 ? company.amount : amount);
    const second = await call({ mode: 'company', check_amount: approved, decided_by: company.decidedBy });
    if (second && 'row' in second) return counted(approval(second, id), req.amount);
  }
  const ms = Math.round(performance.now() - started);
  return {
    company: {
      transactionId: id,
      decidedBy: company.decidedBy,
      approved: company.approved,
      amount: company.amount,
      requested: amount,
      ms,
    },
  };
}
