import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ApiCard, additionalLimitBody, changeStatusTokenBody, spendingLimitBody } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import { cards } from '../../db/schema';
import { AppError, HTTP, invalidField, notFound } from '../../lib/http';
import { cardForCaller } from './access';
import { emitEvent } from '../integrations/webhooks';
import { cardEventData } from './events';
import type { CardRow } from './presenters';
import { enqueue } from './operations';
import { performNow } from './outbox';

function assertLive(card: CardRow) {
  if (card.deletedAt) throw new AppError(HTTP.CONFLICT, 'This card has been deleted.');
}

async function freezeOrUnfreeze(ctx: AppContext, card: CardRow, status: 'activate' | 'deactivate') {
  assertLive(card);
  if (card.type !== 'premium') throw invalidField('status', 'Basic cards cannot be frozen.');
  const target: ApiCard['state'] = status === 'deactivate' ? 'Deactivated' : 'Active';
  if (card.state === target) {
    throw new AppError(
      HTTP.CONFLICT,
      status === 'deactivate' ? 'The card is already frozen.' : 'The card is already active.',
    );
  }
  // The card's state first, with the operation the issuer is owed; undone if the issuer finally refuses.
  const operation = status === 'deactivate' ? 'freeze' : 'unfreeze';
  const op = await ctx.db.transaction(async (tx) => {
    await tx.update(cards).set({ state: target, updatedAt: ctx.now() }).where(eq(cards.id, card.id));
    await emitEvent(
      tx,
      card.walletId,
      status === 'deactivate' ? 'card.frozen' : 'card.unfrozen',
      cardEventData(tx, card, { state: target }),
      ctx.now(),
    );
    return enqueue(tx, {
      operation,
      cardId: card.id,
      cardToken: card.issuerToken,
      purpose: operation,
      plan: { previous: card.state },
      at: ctx.now(),
    });
  });
  if ((await performNow(ctx, op)) === 'failed') {
    throw new AppError(
      HTTP.SERVICE_UNAVAILABLE,
      `The card issuer could not ${operation} the card. Nothing changed; please try again.`,
    );
  }
  return {
    message: status === 'deactivate' ? 'Card frozen successfully.' : 'Card unfrozen successfully.',
    state: target,
  };
}

/** Freeze (deactivate) or unfreeze (activate) a premium card: its owner or staff. */
export async function changeStatus(ctx: AppContext, me: AuthUser, cardId: string, status: 'activate' | 'deactivate') {
  return freezeOrUnfreeze(ctx, await cardForCaller(ctx, me, cardId), status);
}

/** Staff: the same by the issuer's card token (the back-office Activate Cards panel). */
export async function changeStatusByToken(ctx: AppContext, body: z.output<typeof changeStatusTokenBody>) {
  const [card] = await ctx.db.select().from(cards).where(eq(cards.issuerToken, body.card_token));
  if (!card || (body.wallet_id && card.walletId !== body.wallet_id))
    throw invalidField('card_token', 'No card has this token');
  return freezeOrUnfreeze(ctx, card, body.status);
}

function assertVisa(card: CardRow) {
  assertLive(card);
  if (card.purpose !== 'media')
    throw invalidField('spending_limit', 'Not applicable! Spending limits apply to Visa cards only.');
}

/** The owner sets a Visa card's spending limit and the period it resets. */
export async function setSpendingLimit(
  ctx: AppContext,
  me: AuthUser,
  cardId: string,
  body: z.output<typeof spendingLimitBody>,
) {
  const card = await cardForCaller(ctx, me, cardId);
  assertVisa(card);
  await ctx.db
    .update(cards)
    .set({ spendingLimit: body.spending_limit, spendingControl: body.spending_control, updatedAt: ctx.now() })
    .where(eq(cards.id, card.id));
  return {
    message: 'Spending limit updated.',
    spending_limit: formatMoney(body.spending_limit),
    spending_control: body.spending_control,
  };
}

/** The owner allows extra spending on top of the limit (it counts in every period). */
export async function addSpendLimit(
  ctx: AppContext,
  me: AuthUser,
  cardId: string,
  body: z.output<typeof additionalLimitBody>,
) {
  if (body.card && body.card !== cardId) throw invalidField('card', 'The card does not match the address');
  const card = await cardForCaller(ctx, me, cardId);
  assertVisa(card);
  if (card.spendingLimit == null) throw invalidField('spending_limit', 'Set a spending limit on this card first.');
  const [saved] = await ctx.db
    .update(cards)
    .set({ additionalSpendingLimit: card.additionalSpendingLimit + body.spending_limit, updatedAt: ctx.now() })
    .where(eq(cards.id, card.id))
    .returning();
  return {
    message: 'Additional spend limit added.',
    additional_spending_limit: formatMoney(saved!.additionalSpendingLimit),
  };
}

type Toggle = 'flag' | 'unflag' | 'suspend' | 'unsuspend';

/** Staff toggles: each needs a reason; flags and suspensions block authorisations. */
export async function toggle(ctx: AppContext, cardId: string, what: Toggle, reason: string) {
  const now = ctx.now();
  const [card] = await ctx.db.select().from(cards).where(eq(cards.id, cardId));
  if (!card) throw notFound('The card');
  // A deleted card can no longer be used: nothing to flag or suspend (clearing a mark stays possible).
  if (card.deletedAt && (what === 'flag' || what === 'suspend')) {
    throw new AppError(
      HTTP.CONFLICT,
      `The card is deleted: it cannot be ${what === 'flag' ? 'flagged' : 'suspended'}.`,
    );
  }
  const set =
    what === 'flag'
      ? card.flagged
        ? null
        : { flagged: true, flagReason: reason, flaggedAt: now }
      : what === 'unflag'
        ? card.flagged
          ? { flagged: false, flagReason: `Unflagged: ${reason}` }
          : null
        : what === 'suspend'
          ? card.suspended
            ? null
            : { suspended: true, suspendReason: reason, suspendAt: now, unsuspendAt: null }
          : card.suspended
            ? { suspended: false, suspendReason: `Unsuspended: ${reason}`, unsuspendAt: now }
            : null;
  if (!set) {
    const state = {
      flag: 'already flagged',
      unflag: 'not flagged',
      suspend: 'already suspended',
      unsuspend: 'not suspended',
    }[what];
    throw new AppError(HTTP.CONFLICT, `The card is ${state}.`);
  }
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(cards)
      .set({ ...set, updatedAt: now })
      .where(eq(cards.id, cardId));
    const event = {
      flag: 'card.flagged',
      unflag: 'card.unflagged',
      suspend: 'card.suspended',
      unsuspend: 'card.unsuspended',
    }[what];
    await emitEvent(tx, card.walletId, event, cardEventData(tx, card, { reason }), now);
  });
  const done = {
    flag: 'Card flagged.',
    unflag: 'Card unflagged.',
    suspend: 'Card suspended.',
    unsuspend: 'Card unsuspended.',
  }[what];
  return { message: done };
}
