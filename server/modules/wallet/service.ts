import { and, eq, inArray, ne } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MOMO_CONFIRMABLE,
  type TopupInstructions,
  type TopupState,
  TRON_HASH,
  UNCONFIRMED_NOTE_REQUIRED,
  chainConfirmed,
  notApprovableYet,
  type approveTopupBody,
  type topupBalanceBody,
  type topupConfirmBody,
} from '@shared/contract';
import { momoAmountToSend } from '@shared/fees';
import { formatMoney } from '@shared/money';
import { TOPUP_STATE_NAMES } from '@shared/vocabulary';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { topups } from '../../db/schema';
import { AppError, HTTP, conflict, forbidden, invalidField, notFound, ok } from '../../lib/http';
import type { FastifyRequest } from 'fastify';
import { moneyTransaction } from '../../db/money-transaction';
import { momoAlertMail } from '../../mail/templates';
import { mailSoon, notify } from '../notifications/service';
import { topupDecided, topupDecisionKey, topupReview } from '../notifications/events';
import { findWallet } from '../ledger/accounts';
import { creditTopup } from './credit';
import { claimDepositsFor, depositRecorded, lockHash, refuseCreditedHash, settleDeposit } from '../deposits/settle';
import { checkHash } from '../deposits/hash-check';
import { depositAddressOf } from '../deposits/addresses';
import { NETWORK_NAME } from '../../chain/port';
import type { ChainCheck } from '../../db/schema';
import { newReference, randomCode } from '../ledger/refs';
import { isMomoAgent, momoSettingsOf } from '../momo/service';
import { ownWalletId, walletOwner } from './access';
import { findTopup, findTopupByReference } from './queries';

import { MIN_TOPUP_CENTS } from '../deposits/settle';

async function sendSafely(ctx: AppContext, what: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (err) {
    ctx.log.error({ err }, `could not send ${what} mail`);
  }
}

async function instructions(
  ctx: AppContext,
  t: typeof topups.$inferSelect,
  momo?: { network: string; number: string; name: string },
): Promise<TopupInstructions> {
  const base = {
    reference: t.reference,
    code: t.code,
    method: t.method as 'Tron' | 'Momo',
    amount: formatMoney(t.amount),
  };
  // The wallet's own address: what arrives there is credited by itself.
  if (t.method === 'Tron')
    return { ...base, tron: { network: NETWORK_NAME, address: await depositAddressOf(ctx, t.walletId) } };
  const ghs = formatMoney(t.momoAmount!);
  return {
    ...base,
    momo: {
      network: momo!.network,
      momo_number: momo!.number,
      momo_name: momo!.name,
      amount_to_send: ghs,
      currency: 'GHS',
      pay_reference: `${t.code}-${ghs}`,
    },
  };
}

/** Step 1 of a top-up: a Pending request with a reference, and how to pay it. */
export async function createTopup(ctx: AppContext, me: AuthUser, body: z.output<typeof topupBalanceBody>) {
  const walletId = ownWalletId(me);
  if (body.wallet_id !== walletId) throw notFound('The wallet');
  if (!(await findWallet(ctx.db, walletId))) throw notFound('The wallet');
  if (body.amount < MIN_TOPUP_CENTS) throw invalidField('amount', 'The minimum top-up is USDT 1.00');
  const method = body.method === 'momo' ? 'Momo' : 'Tron';
  const settings = method === 'Momo' ? await momoSettingsOf(ctx.db) : null;
  const now = ctx.now();
  const [t] = await ctx.db
    .insert(topups)
    .values({
      id: crypto.randomUUID(),
      walletId,
      reference: newReference('TOP'),
      code: randomCode(6),
      method,
      amount: body.amount,
      state: 'Pending',
      momoAmount: settings ? momoAmountToSend(settings.rate, settings.flatFee, body.amount) : null,
      momoRate: settings?.rate ?? null,
      momoFlatFee: settings?.flatFee ?? null,
      createdBy: me.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (settings?.alertEmails.length) {
    const owner = await walletOwner(ctx.db, walletId);
    await sendSafely(ctx, 'momo alert', () =>
      ctx.mailer.send(
        momoAlertMail(settings.alertEmails, {
          reference: t!.reference,
          amount: formatMoney(t!.amount),
          ghs: formatMoney(t!.momoAmount!),
          owner: owner?.name ?? walletId,
          code: t!.code,
        }),
      ),
    );
  }
  return instructions(
    ctx,
    t!,
    settings ? { network: settings.network, number: settings.momoNumber, name: settings.momoName } : undefined,
  );
}

/** The payment details again, for a Pending top-up the customer continues later. */
export async function topupInstructions(ctx: AppContext, me: AuthUser, reference: string) {
  const t = await findTopupByReference(ctx.db, reference);
  if (!t || t.walletId !== ownWalletId(me)) throw notFound('The top-up');
  const settings = t.method === 'Momo' ? await momoSettingsOf(ctx.db) : null;
  return instructions(
    ctx,
    t,
    settings ? { network: settings.network, number: settings.momoNumber, name: settings.momoName } : undefined,
  );
}

/** Staff hear of a top-up once it can be approved (the state notApprovableYet lets through). */
async function notifyReview(tx: DbOrTx, t: typeof topups.$inferSelect, now: Date) {
  const owner = await walletOwner(tx, t.walletId);
  await notify(
    tx,
    { staff: true },
    topupReview(t, { name: owner?.name ?? 'A customer', type: owner?.type ?? 'Individual' }),
    now,
  );
}

/** Step 2: the customer says they paid: a Tron transaction hash, or "Paid" for mobile money. */
export async function confirmTopup(ctx: AppContext, me: AuthUser, body: z.output<typeof topupConfirmBody>) {
  const t = await findTopupByReference(ctx.db, body.reference);
  if (!t || t.walletId !== ownWalletId(me)) throw notFound('The top-up');
  let hash: string;
  if (t.method === 'Tron') {
    const raw = body.transaction_hash?.trim() ?? '';
    if (
      t.state === 'Approved' &&
      t.creditedAutomatically &&
      raw.replace(/^0x/, '').toLowerCase() === t.transactionHash
    ) {
      // The watcher saw the payment while the customer was pasting its hash: that is a success, not a conflict.
      return {
        message: confirmMessage('Tron', 'Approved', undefined),
        reference: t.reference,
        state: 'Approved' as const,
        transaction_hash: t.transactionHash,
        chain_check: t.chainCheck ?? null,
      };
    }
    if (t.state !== 'Pending') throw conflict('This top-up was already confirmed.');
    if (!raw) throw invalidField('transaction_hash', 'Provide transaction hash');
    if (!TRON_HASH.test(raw))
      throw invalidField('transaction_hash', 'A Tron transaction hash is 64 hexadecimal characters');
    hash = raw.replace(/^0x/, '').toLowerCase();
  } else {
    if (t.state !== 'Pending') throw conflict('This top-up was already confirmed.');
    if (body.code && body.code.toUpperCase() !== t.code)
      throw invalidField('code', 'The code does not match this top-up');
    hash = `${t.code}-${formatMoney(t.momoAmount!)}`;
  }
  // The chain is asked before the transaction: a slow chain must not hold row locks.
  const facts = t.method === 'Tron' ? await checkHash(ctx, t, hash) : null;
  const [updated] = await ctx.db.transaction(async (tx) => {
    if (t.method === 'Tron') {
      // One Tron payment backs one top-up: confirmations of the same hash take turns (with the
      // deposit watcher too), so two top-ups confirmed at the same moment cannot both pass the check.
      await lockHash(tx, hash);
      const [dup] = await tx
        .select({ id: topups.id, walletId: topups.walletId, state: topups.state, reference: topups.reference })
        .from(topups)
        .where(and(eq(topups.transactionHash, hash), ne(topups.state, 'Denied'), ne(topups.id, t.id)));
      if (dup?.walletId === t.walletId && dup.state === 'Approved')
        throw invalidField(
          'transaction_hash',
          `This deposit was already credited to your wallet as top-up ${dup.reference}`,
        );
      if (dup) throw invalidField('transaction_hash', 'This transaction hash was already submitted for another top-up');
    }
    const rows = await tx
      .update(topups)
      .set({ state: 'Hash-provided', transactionHash: hash, chainCheck: facts?.check ?? null, updatedAt: ctx.now() })
      .where(and(eq(topups.id, t.id), eq(topups.state, 'Pending')))
      .returning();
    // A Tron top-up with its hash is what staff approve, unless the chain shows it paying this top-up;
    // a Momo one waits for an agent first.
    if (rows.length && t.method === 'Tron' && !facts?.pays) await notifyReview(tx, t, ctx.now());
    return rows;
  });
  if (!updated) throw conflict('This top-up was already confirmed.');
  let state = updated.state;
  if (facts?.pays) {
    if (facts.check.settled) {
      await settleDeposit(ctx, facts.pays, { address: facts.pays.to, walletId: facts.pays.walletId });
      // Read back: a watcher may have settled it a moment before this request did.
      state = (await findTopup(ctx.db, t.id))?.state ?? state;
    }
    // Not credited although the chain shows it paying this top-up (the watcher had already sent
    // that deposit to staff): staff hear of it, as of any top-up waiting for them.
    if (state !== 'Approved' && (facts.check.settled || (await depositRecorded(ctx.db, hash)))) {
      await ctx.db.transaction((tx) => notifyReview(tx, t, ctx.now()));
    }
  }
  return {
    message: confirmMessage(t.method, state, facts?.check),
    reference: updated.reference,
    state: state as TopupState,
    transaction_hash: updated.transactionHash,
    chain_check: facts?.check ?? null,
  };
}

function confirmMessage(method: string, state: string, check: ChainCheck | undefined) {
  if (method !== 'Tron')
    return 'Payment noted. We verify mobile-money payments between 9am and 11pm GMT, usually within 30 minutes.';
  if (state === 'Approved') return 'Deposit confirmed on the chain: your wallet is credited.';
  if (check?.matches)
    return `Deposit found on the chain (${check.confirmations} confirmation${check.confirmations === 1 ? '' : 's'} so far). Your wallet is credited as soon as it is confirmed, usually within minutes.`;
  return 'Transaction hash received. Your wallet is credited once the deposit is confirmed (usually within 15 minutes).';
}

/** A momo agent confirms the mobile money arrived. */
export async function markMomoProcessed(ctx: AppContext, me: AuthUser, topupId: string) {
  if (!(await isMomoAgent(ctx.db, me.id))) throw forbidden('Only mobile-money agents confirm payments.');
  const t = await findTopup(ctx.db, topupId);
  if (t?.method !== 'Momo') throw notFound('The top-up');
  const now = ctx.now();
  const [updated] = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(topups)
      .set({ state: 'MoMo processed', processedBy: me.id, processedAt: now, updatedAt: now })
      .where(and(eq(topups.id, t.id), inArray(topups.state, [...MOMO_CONFIRMABLE])))
      .returning();
    if (rows.length) await notifyReview(tx, t, now);
    return rows;
  });
  if (!updated)
    throw conflict(
      `This top-up is ${TOPUP_STATE_NAMES[t.state as TopupState] ?? t.state} and cannot be confirmed again.`,
    );
  return { message: 'Payment confirmed. The top-up now waits for approval.', state: 'MoMo processed' as const };
}

/**
 * Staff approve (credit once, ever) or deny (with a reason) a top-up. The row is locked and its
 * state re-checked inside the transaction, so two approvals at the same moment credit once.
 */
const decided = (decision: 'Approved' | 'Denied') => ({
  message: decision === 'Approved' ? 'Top-up approved and the wallet credited.' : 'Top-up denied.',
  state: decision,
});

/** Staff approve (the wallet is credited, once ever) or deny a top-up; the request's Idempotency-Key is kept in the same transaction. */
export async function decideTopup(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof approveTopupBody>,
  req: FastifyRequest | null = null,
) {
  const now = ctx.now();
  const result = await moneyTransaction(
    ctx,
    req,
    async (tx) => {
      // The payment's lock first, then the row: the order the watcher and topup-confirm take them in.
      const [peek] = await tx
        .select({ hash: topups.transactionHash, method: topups.method })
        .from(topups)
        .where(eq(topups.id, body.topup_id));
      if (peek?.hash && peek.method === 'Tron') await lockHash(tx, peek.hash);
      const [t] = await tx.select().from(topups).where(eq(topups.id, body.topup_id)).for('update');
      if (!t) throw notFound('The top-up');
      if (t.state === 'Approved' || t.state === 'Denied')
        throw conflict(`This top-up was already ${t.state.toLowerCase()}.`);
      if (body.action === 'deny') {
        await tx
          .update(topups)
          .set({
            state: 'Denied',
            reason: body.reason!,
            decisionNote: body.note || null,
            decidedBy: me.id,
            decidedAt: now,
            updatedAt: now,
          })
          .where(eq(topups.id, t.id));
        await notify(tx, { owner: t.walletId }, topupDecided(t, 'Denied', { reason: body.reason! }), now);
        return { t, decision: 'Denied' as const, credited: 0, fee: 0 };
      }
      const notYet = notApprovableYet(t);
      if (notYet) throw new AppError(HTTP.CONFLICT, notYet);
      if (!body.note && !chainConfirmed({ method: t.method, chain_check: t.chainCheck ?? null }))
        throw invalidField('note', UNCONFIRMED_NOTE_REQUIRED);
      if (t.method === 'Tron' && t.transactionHash) await refuseCreditedHash(tx, t.transactionHash);
      const { credited, fee } = await creditTopup(tx, t, { by: me.id, at: now, note: body.note || undefined });
      if (t.method === 'Tron' && t.transactionHash) await claimDepositsFor(tx, t, t.transactionHash, me.id, now);
      return { t, decision: 'Approved' as const, credited, fee };
    },
    (r) => ok(decided(r.decision)),
  );
  mailSoon(ctx, [topupDecisionKey(result.t.id)]);
  return decided(result.decision);
}

/** Master wallet to master wallet: atomic, final, refused when funds are short. */
