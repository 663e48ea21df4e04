import { centsText } from '@shared/vocabulary';
import { and, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type ApiCardAllowance,
  type ApiCardDetail,
  MIN_CARD_LOAD_CENTS,
  UNVERIFIED_CARD_LIMIT,
  type createCardBody,
  isStaff,
} from '@shared/contract';
import { type CardPurpose, FEES_FOR, computeFees } from '@shared/fees';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { cardTransactions, cards, ledgerAccounts } from '../../db/schema';
import { brandOfPurpose, withTimeout } from '../../issuer/port';
import { AppError, HTTP, invalidField, notFound } from '../../lib/http';
import { scheduleFor } from '../fees/service';
import { PLATFORM, findWallet } from '../ledger/accounts';
import { InsufficientFunds, post } from '../ledger/post';
import { IdempotentReplay } from '../../db/idempotency-keys';
import { moneyTransaction } from '../../db/money-transaction';
import { ok } from '../../lib/http';
import { cardMovement, feesMetaOf } from './movements';
import { ISSUER_FAILURE } from './outbox-effects';
import { enqueue } from './operations';
import { performNow } from './outbox';
import { newReference } from '../ledger/refs';
import { ownWalletId } from '../wallet/access';
import { cardForCaller, ownerProfile } from './access';
import { cardAccounts, createCardAccounts } from './accounts';
import { maskPan, toApiCard } from './presenters';

const issuerDown = () =>
  new AppError(
    HTTP.SERVICE_UNAVAILABLE,
    'The card issuer did not complete the operation. Nothing was charged; please try again.',
  );

/** Cards a wallet has had, deleted ones included; cards the issuer never loaded do not count against the lifetime limit. */
async function cardsCounted(db: DbOrTx, walletId: string): Promise<number> {
  const [made] = await db
    .select({ n: count() })
    .from(cards)
    .where(and(eq(cards.walletId, walletId), or(isNull(cards.endReason), ne(cards.endReason, ISSUER_FAILURE))));
  return made?.n ?? 0;
}

/** How many more cards the caller's wallet may have, shown before the form is filled. */
export async function cardAllowance(ctx: AppContext, me: AuthUser): Promise<ApiCardAllowance> {
  const walletId = ownWalletId(me);
  const [owner, created] = await Promise.all([ownerProfile(ctx.db, walletId), cardsCounted(ctx.db, walletId)]);
  if (owner.verified) return { limit: null, created, left: null };
  return { limit: UNVERIFIED_CARD_LIMIT, created, left: Math.max(0, UNVERIFIED_CARD_LIMIT - created) };
}

interface Created {
  detail: ApiCardDetail;
  load: string;
}

/**
 * Creates a card: issued at the issuer (nothing is charged if that fails), then in one
 * transaction with the request's Idempotency-Key: the card row, its ledger accounts, the movement
 * (the wallet pays amount + fees, the card receives the amount) and the load the issuer is owed,
 * which is tried at once and retried by the outbox worker; if it finally fails, the card ends and
 * the wallet gets everything back (outbox-effects.ts).
 */
export async function createCard(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof createCardBody>,
  req: FastifyRequest | null = null,
): Promise<ApiCardDetail> {
  const walletId = ownWalletId(me);
  const wallet = await findWallet(ctx.db, walletId);
  if (!wallet) throw notFound('The wallet');
  if (body.card_amount < MIN_CARD_LOAD_CENTS) throw invalidField('card_amount', 'The minimum card load is USD 3.00');
  const owner = await ownerProfile(ctx.db, walletId);
  const purpose = body.purpose as CardPurpose;
  const fees = computeFees(
    await scheduleFor(ctx.db, owner.companyId),
    FEES_FOR.cardCreation(purpose),
    body.card_amount,
  );
  const needed = body.card_amount + fees.total;
  if (wallet.balance < needed) {
    throw invalidField(
      'card_amount',
      `Insufficient balance in your master wallet: this card needs ${centsText(needed, 'USD')} with fees.`,
    );
  }
  const issueId = crypto.randomUUID();
  const timeout = ctx.config.issuer.timeoutMs;
  const issued = await withTimeout(
    ctx.issuer.issue({ brand: brandOfPurpose(purpose), holder: `${body.first_name} ${body.last_name}`, opId: issueId }),
    timeout,
  ).catch(() => {
    throw issuerDown();
  });
  const secret = await withTimeout(ctx.issuer.reveal(issued.token), timeout).catch(() => {
    throw issuerDown();
  });
  const cardId = crypto.randomUUID();
  const now = ctx.now();
  let created: Created;
  try {
    created = await moneyTransaction(
      ctx,
      req,
      async (tx) => {
        // The wallet row lock serialises card creation per wallet: the lifetime limit holds under races.
        // Fee income is locked with it, in id order as every posting locks its accounts; locking the
        // wallet alone first would deadlock with a posting that holds fee income and waits for the wallet.
        await tx
          .select({ id: ledgerAccounts.id })
          .from(ledgerAccounts)
          .where(inArray(ledgerAccounts.id, [wallet.id, PLATFORM.feeIncome]))
          .orderBy(ledgerAccounts.id)
          .for('update');
        if (!owner.verified) {
          if ((await cardsCounted(tx, walletId)) >= UNVERIFIED_CARD_LIMIT) {
            throw invalidField(
              'card_amount',
              'Unverified accounts can create at most 5 cards. Complete your verification to create more.',
            );
          }
        }
        const [same] = await tx
          .select({ id: cards.id })
          .from(cards)
          .where(and(eq(cards.walletId, walletId), eq(cards.nickname, body.nickname), isNull(cards.deletedAt)));
        if (same) throw invalidField('nickname', 'You already have a card with this nickname');
        const visa = purpose === 'media';
        const [row] = await tx
          .insert(cards)
          .values({
            id: cardId,
            walletId,
            createdBy: me.id,
            firstName: body.first_name,
            lastName: body.last_name,
            nickname: body.nickname,
            purpose,
            type: body.type,
            issuerToken: issued.token,
            last4: issued.last4,
            maskedNumber: maskPan(issued.last4),
            expMonth: issued.expMonth,
            expYear: issued.expYear,
            billing: { ...issued.billing },
            spendingLimit: visa ? (body.spending_limit ?? null) : null,
            spendingControl: visa ? (body.spending_control ?? 'lifetime') : null,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        const acc = await createCardAccounts(tx, cardId);
        const posted = await post(tx, {
          kind: 'issuance',
          reference: newReference('ISS'),
          description: `Card issuance: ${body.nickname}`,
          meta: {
            card_id: cardId,
            card_number: maskPan(issued.last4),
            fees_total: fees.total,
            fees_meta: feesMetaOf(`card-issuance-${purpose}`, fees, body.card_amount),
          },
          createdBy: me.id,
          at: now,
          legs: [
            { accountId: wallet.id, amount: -needed },
            { accountId: acc.card, amount: body.card_amount },
            ...(fees.total ? [{ accountId: PLATFORM.feeIncome, amount: fees.total }] : []),
          ],
        });
        await tx
          .insert(cardTransactions)
          .values(cardMovement(cardId, 'load', body.card_amount, 'Initial card load', posted.transferId, now));
        const issue = { cardId, cardToken: issued.token, at: now };
        await enqueue(tx, {
          ...issue,
          operation: 'issue',
          purpose: 'card-creation',
          state: 'done',
          plan: { issuer_operation: issueId },
        });
        const load = await enqueue(tx, {
          ...issue,
          operation: 'load',
          amount: body.card_amount,
          purpose: 'card-creation',
          plan: { fees: fees.total },
        });
        const detail: ApiCardDetail = {
          card: {
            ...toApiCard(row!, { available: body.card_amount, held: 0 }, { staff: false }),
            card_number: secret.pan,
          },
          details: { card_exp_month: row!.expMonth, card_exp_year: row!.expYear, card_cvv: secret.cvc },
          billing: row!.billing as ApiCardDetail['billing'],
        };
        return { detail, load };
      },
      (r) => ok(r.detail),
      { status: HTTP.CREATED },
    );
  } catch (e) {
    // The issued card will never be used: end it at the issuer (it holds nothing).
    if (!(e instanceof IdempotentReplay))
      await ctx.issuer.terminate(issued.token, crypto.randomUUID()).catch(() => undefined);
    if (e instanceof InsufficientFunds) throw invalidField('card_amount', 'Insufficient balance in your master wallet');
    throw e;
  }
  await performNow(ctx, created.load);
  return created.detail;
}

/** A card with its details; the full number and CVC only for its owner. */
export async function cardDetail(ctx: AppContext, me: AuthUser, cardId: string): Promise<ApiCardDetail> {
  const card = await cardForCaller(ctx, me, cardId);
  const acc = await cardAccounts(ctx.db, card.id);
  const staff = isStaff(me.role);
  const api = toApiCard(card, { available: acc.card.balance, held: acc.hold.balance }, { staff });
  const detail: ApiCardDetail = {
    card: api,
    details: { card_exp_month: card.expMonth, card_exp_year: card.expYear },
    billing: card.billing as ApiCardDetail['billing'],
  };
  if (!staff && !card.deletedAt) {
    const secret = await ctx.issuer.reveal(card.issuerToken);
    detail.card.card_number = secret.pan;
    detail.details.card_cvv = secret.cvc;
  }
  return detail;
}

export { cardMovement } from './movements';
export { fundCard, withdrawFromCard } from './funds';
export { deleteCard, endCard } from './end';
