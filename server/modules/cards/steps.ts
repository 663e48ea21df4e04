import { and, eq, sql } from 'drizzle-orm';
import type { DeclineCode } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { Tx } from '../../db/client';
import { cardTransactions, cards, ledgerAccounts, ledgerEntries } from '../../db/schema';
import type { AuthorizationDecision, StepOutcome } from '../../issuer/port';
import { IssuerError } from '../../issuer/port';
import { emitEvent } from '../integrations/webhooks';
import { cardEventData } from './events';
import type { CardRow } from './presenters';

/** What the steps of an authorisation's life share: finding and locking, replaying a repeat, recording a row. */

export type CardTx = typeof cardTransactions.$inferSelect;

/**
 * Serialises the decisions on one card. NO KEY UPDATE, not UPDATE: a funding, withdrawal or
 * maintenance fee inserting the card's movement (a foreign key to this row) after locking the
 * card's ledger account must not wait for this lock, or the two deadlock.
 */
export async function lockCardByToken(tx: Tx, token: string) {
  const [card] = await tx.select().from(cards).where(eq(cards.issuerToken, token)).for('no key update');
  if (!card) throw new IssuerError('The platform does not know this card.');
  return card;
}

export async function lockCardById(tx: Tx, id: string) {
  const [card] = await tx.select().from(cards).where(eq(cards.id, id)).for('no key update');
  if (!card) throw new IssuerError('The platform does not know this card.');
  return card;
}

/** The authorisation of an issuer reference, locked: the steps of one authorisation happen one at a time. */
export async function lockAuthorization(tx: Tx, ref: string) {
  const [auth] = await tx
    .select()
    .from(cardTransactions)
    .where(and(eq(cardTransactions.issuerReference, ref), eq(cardTransactions.kind, 'authorization')))
    .for('update');
  if (!auth) throw new IssuerError('The platform does not know this authorisation.');
  return auth;
}

/** The row an issuer message already recorded (the issuer sent it again), or null. */
export async function recorded(tx: Tx, issuerReference: string) {
  const [row] = await tx.select().from(cardTransactions).where(eq(cardTransactions.issuerReference, issuerReference));
  return row ?? null;
}

/** How a recorded step moved the card's available balance: its posting's entry on the card's account. */
async function availableDeltaOf(tx: Tx, row: CardTx): Promise<number> {
  if (!row.ledgerTransferId) return 0;
  const [e] = await tx
    .select({ amount: ledgerEntries.amount })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(
      and(
        eq(ledgerEntries.transferId, row.ledgerTransferId),
        eq(ledgerAccounts.ownerId, row.cardId),
        eq(ledgerAccounts.kind, 'card'),
      ),
    );
  return Number(e?.amount ?? 0);
}

/** The answer to a repeated message: what the first one did, and the authorisation as it is now. */
export async function replayStep(tx: Tx, row: CardTx): Promise<StepOutcome> {
  const auth = row.authorizationId
    ? (await tx.select().from(cardTransactions).where(eq(cardTransactions.id, row.authorizationId)))[0]
    : undefined;
  return {
    transactionId: row.id,
    availableDelta: await availableDeltaOf(tx, row),
    authStatus: auth?.status ?? null,
    authAmount: auth?.amount ?? null,
    message: row.description,
  };
}

export async function replayDecision(tx: Tx, row: CardTx): Promise<AuthorizationDecision> {
  const step = await replayStep(tx, row);
  const approved = row.status !== 'declined';
  const isAuth = row.kind === 'authorization';
  return {
    approved,
    approvedAmount: approved ? -step.availableDelta : 0,
    declineCode: row.declineCode as DeclineCode | null,
    declineReason: row.declineReason,
    transactionId: row.id,
    availableDelta: step.availableDelta,
    authStatus: isAuth ? row.status : (step.authStatus ?? row.status),
    authAmount: isAuth ? row.amount : (step.authAmount ?? row.amount),
  };
}

type StepKind = 'increment' | 'reversal' | 'clearing' | 'merchant_refund' | 'force_post' | 'expiry';

/** Records one step as a row of its own, pointing at its authorisation (if any) and its posting. */
export async function insertStep(
  tx: Tx,
  s: {
    card: CardRow;
    auth: CardTx | null;
    kind: StepKind;
    status?: 'completed' | 'declined';
    amount: number;
    description: string;
    issuerReference: string;
    ledgerTransferId: string | null;
    merchant?: string;
    mcc?: string | null;
    country?: string;
    released?: number;
    fromAvailable?: number;
    declineCode?: DeclineCode | null;
    declineReason?: string | null;
    now: Date;
  },
) {
  const id = crypto.randomUUID();
  await tx.insert(cardTransactions).values({
    id,
    cardId: s.card.id,
    kind: s.kind,
    status: s.status ?? 'completed',
    amount: s.amount,
    currency: s.auth?.currency ?? 'USD',
    merchant: s.merchant ?? s.auth?.merchant ?? '',
    country: s.country ?? s.auth?.country ?? '',
    mcc: s.mcc ?? s.auth?.mcc ?? null,
    description: s.description,
    declineCode: s.declineCode ?? null,
    declineReason: s.declineReason ?? null,
    authorizationId: s.auth?.id ?? null,
    issuerReference: s.issuerReference,
    ledgerTransferId: s.ledgerTransferId,
    released: s.released ?? 0,
    fromAvailable: s.fromAvailable ?? 0,
    createdAt: s.now,
    updatedAt: s.now,
  });
  return id;
}

/** The authorisation's new status and what it holds. */
export async function updateAuthorization(
  tx: Tx,
  auth: CardTx,
  set: { status?: string; held?: number; amount?: number },
  now: Date,
) {
  await tx
    .update(cardTransactions)
    .set({ ...set, updatedAt: now })
    .where(eq(cardTransactions.id, auth.id));
}

/** A card webhook about a step (with the card's available balance after it). */
export function stepEvent(
  tx: Tx,
  card: CardRow,
  type: string,
  row: { id: string; amount: number; merchant: string; country: string; mcc: string | null; currency?: string },
  extra: Record<string, unknown>,
  now: Date,
) {
  return emitEvent(
    tx,
    card.walletId,
    type,
    cardEventData(tx, card, {
      transaction_id: row.id,
      amount: formatMoney(row.amount),
      currency: row.currency ?? 'USD',
      merchant: row.merchant,
      country: row.country,
      mcc: row.mcc,
      ...extra,
    }),
    now,
  );
}

/** The card's available balance after a posting (negative: a debt). */
export const availableAfter = (posted: { balances: Map<string, { after: number }> }, accountId: string) =>
  posted.balances.get(accountId)?.after ?? 0;

/** Streak of declines for insufficient funds (basic cards end after a few): an approval resets it. */
export async function setStreak(tx: Tx, cardId: string, insufficient: boolean, now: Date) {
  await tx
    .update(cards)
    .set({ insufficientStreak: insufficient ? sql`${cards.insufficientStreak} + 1` : 0, updatedAt: now })
    .where(eq(cards.id, cardId));
}
