import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TransferResult, transferBody } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import { AppError, HTTP, invalidField, notFound } from '../../lib/http';
import { KEY_IN_FLIGHT, MAX_KEY_CLAIMS } from '../../db/idempotency-keys';
import { moneyKey, onKeyTaken } from '../../db/money-transaction';
import { newReference } from '../ledger/refs';
import { ownWalletId } from './access';
import { failpoint } from '../../lib/failpoints';
import { mailClaimed } from '../notifications/service';
import { type Posted, postTransfer } from './transfer-batch';

/** What cw_transfer_batch fills in from the locked rows: JSON strings in the answer it stores. */
const FILLED = {
  to_name: '__cw_to_name__',
  balance_before: '__cw_balance_before__',
  balance_after: '__cw_balance_after__',
} as const;

/** The function's refusals ('cw:<reason>', raised so that nothing it did stays) as the API answers them. */
function refusal(err: unknown): AppError | null {
  for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    switch (e.message) {
      case 'cw:source_not_found':
        return notFound('The wallet');
      case 'cw:target_not_found':
        return invalidField('wallet_id', 'No master wallet has this id');
      case 'cw:target_inactive':
        return invalidField('wallet_id', 'This wallet cannot receive transfers');
      case 'cw:insufficient_funds':
        return invalidField('amount', 'Insufficient balance in your master wallet');
    }
  }
  return null;
}

/**
 * A transfer between master wallets. The decision and the posting are one database function
 * (cw_transfer_batch, server/db/sql/transfers.sql) called in one round trip that commits on its own: the wallets'
 * row locks are then held only while the database works, not while answers travel to this
 * process and back, which is what bounds transfers between the same two wallets; transfers that
 * arrive together share one commit (transfer-batch.ts). The request's
 * Idempotency-Key is claimed and answered inside it (the answer is `answer(result)`, which the
 * route must send as it is), and the receivers' mail is claimed for this instance, which sends it after.
 */
export async function transfer(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof transferBody>,
  req: FastifyRequest | null = null,
  answer: (result: TransferResult) => unknown = (r) => r,
): Promise<TransferResult> {
  const from = ownWalletId(me);
  if (body.wallet_id === from) throw invalidField('wallet_id', 'You cannot transfer to your own wallet');
  const idem = moneyKey(req);
  for (let attempt = 1; attempt <= MAX_KEY_CLAIMS; attempt++) {
    const at = ctx.now();
    const base: TransferResult = {
      message: 'Transfer completed.',
      id: crypto.randomUUID(),
      trans_ref: newReference('TRF'),
      wallet_from: from,
      wallet_to: body.wallet_id,
      to_name: FILLED.to_name,
      amount: formatMoney(body.amount),
      reference: body.reference ?? null,
      status: 'Completed',
      balance_before: FILLED.balance_before,
      balance_after: FILLED.balance_after,
      created_at: at.toISOString(),
    };
    const meta = { wallet_from: from, wallet_to: body.wallet_id, reference: body.reference ?? null, transferer: me.id };
    let row: Posted;
    try {
      row = await postTransfer(ctx, {
        from,
        to: body.wallet_id,
        amount: body.amount,
        transfer_id: base.id,
        entry_from: crypto.randomUUID(),
        entry_to: crypto.randomUUID(),
        reference: base.trans_ref,
        description: body.reference || 'Wallet transfer',
        meta,
        created_by: me.id,
        at: base.created_at,
        principal: idem?.principal ?? null,
        key: idem?.key ?? null,
        request_hash: idem?.requestHash ?? null,
        answer: idem ? JSON.stringify(answer(base)) : null,
      });
    } catch (err) {
      throw refusal(err) ?? err;
    }
    if (row.outcome === 'ok') {
      if (idem) idem.completed = true;
      if (row.mails) mailClaimed(ctx, row.mails);
      await failpoint(ctx, 'money.after-commit');
      return {
        ...base,
        to_name: row.to_name!,
        balance_before: formatMoney(Number(row.balance_before)),
        balance_after: formatMoney(Number(row.balance_after)),
      };
    }
    await onKeyTaken(ctx, idem!, at);
  }
  throw new AppError(HTTP.CONFLICT, KEY_IN_FLIGHT);
}
